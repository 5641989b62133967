package verify

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// Defaults of [Options].
const (
	DefaultSample        = 1000
	DefaultMaxMismatches = 10
)

// Options configure [File] and [Server]. The zero value is ready to use.
type Options struct {
	// Manifest is what the file or the server must hold. Default nil: [File] checks the
	// file's checksum, structure and counts against themselves (the RESIZEDB hints) and the
	// server's counts against the file's, and samples nothing. [Server] needs a manifest.
	Manifest *manifest.Manifest

	// Offline stops [File] after the offline stage: no server is started. Default false.
	Offline bool

	// Server configures the server that [File] starts on the file. Default: the zero
	// [server.Options] (docker when the engine answers, else a local redis-server).
	// Its Progress is replaced by this package's.
	Server server.Options

	// Sample is how many records to spot-check, spread across the dataset with the first
	// and last included (see [Sample]). Default 0 means DefaultSample (1000); a negative
	// value checks none.
	Sample int

	// SampleSeed seeds the choice of the sampled records. Default 0, a seed like any other:
	// the same seed picks the same records.
	SampleSeed uint64

	// MaxMismatches is how many mismatches a Report lists; the others are only counted.
	// Default 0 means DefaultMaxMismatches (10).
	MaxMismatches int

	// For, if not nil, is the managed service the file must suit: its rules (the RDB
	// version it loads, one database, the object's name) are checked offline, each broken
	// one a Mismatch of StageFile, with the same code the writer refuses with. Default nil.
	For *rdb.Service

	// name is the name the file was given, a URL or a gzipped file's, when File reads a
	// local copy of it (see Dump): the name the service's rules check.
	name string

	// Progress, if not nil, is called as the stages advance, from the caller's goroutine,
	// with the Stage's name: bytes (Bytes of TotalBytes) in StageFile (the file's size) and
	// StageLoad (as the server reports them), records (Keys of Total) in StageServer.
	// Default nil.
	Progress func(record.Progress)
}

func (o Options) sampleSize() int {
	switch {
	case o.Sample < 0:
		return 0
	case o.Sample == 0:
		return DefaultSample
	}
	return o.Sample
}

func (o Options) newMismatches() *mismatches {
	n := o.MaxMismatches
	if n <= 0 {
		n = DefaultMaxMismatches
	}
	return &mismatches{max: n}
}

func (o Options) progress(p record.Progress) {
	if o.Progress != nil {
		o.Progress(p)
	}
}

// Offline is the backend name of SetBackend that starts no server.
const Offline = "offline"

// SetBackend sets how the server is run from its name: a server.Backend (auto, docker,
// process), or Offline, which sets Offline.
func (o *Options) SetBackend(name string) error {
	switch b := server.Backend(name); b {
	case Offline:
		o.Offline = true
	case server.BackendAuto, server.BackendDocker, server.BackendProcess:
		o.Server.Backend = b
	default:
		return fmt.Errorf("unknown backend %q (known: auto, docker, process, offline)", b)
	}
	return nil
}

// RandomSeed returns a random SampleSeed, below 2^63 so that it fits the int64 of JSON
// readers, to be printed and so repeated.
func RandomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) >> 1
}
