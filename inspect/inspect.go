// Package inspect reports what an RDB file holds before it is restored: its version and AUX
// fields, its keys per database, type and encoding, the spread of its expiries, its largest
// keys, and the used_memory it will take on a named server (package memory's estimate).
//
// One pass over the file with rdbgen's reader (package decoder) and a few counters: memory
// is bounded by the number of databases, types and encodings and by Options.Top, not by the
// size of the file or of its collections. The package never prints; a caller gets progress
// through Options.Progress and the Report at the end.
package inspect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// DefaultTop is the number of largest keys a Report lists by default.
const DefaultTop = 10

// FallbackTarget is the target of the memory estimate when the file names no server
// release rdbgen knows and no known Redis target writes its RDB version.
const FallbackTarget = "redis-7.4"

// ErrBadOption is returned by Read and File for options that are wrong.
var ErrBadOption = errors.New("inspect: invalid option")

// Options configure an inspection. The zero value works.
type Options struct {
	// Target names the server release of the memory estimate (see rdb.Targets);
	// default: the release the file's redis-ver or valkey-ver AUX field names when it is a
	// target, else the oldest Redis target that writes the file's RDB version, else
	// FallbackTarget.
	Target string
	// Thresholds are the server's encoding settings for the estimate; nil means Redis's
	// defaults (rdb.DefaultThresholds).
	Thresholds *rdb.Thresholds
	// Allocator is the server's allocator for the estimate (memory.Options.Allocator):
	// "" or "jemalloc", or "libc".
	Allocator string
	// Top is the number of largest keys listed by size and by members; default DefaultTop,
	// negative for none.
	Top int
	// Prefixes, if set, asks for the figures per key prefix (Report.Prefixes).
	Prefixes *PrefixOptions
	// Now is the time expiries are compared with; default time.Now().
	Now time.Time
	// Decoder configures the reader; its Progress, if set, is called every few thousand
	// records and at the end.
	Decoder decoder.Options
	// Name is what the error of a damaged file calls it ("read NAME: ..."); default the path
	// File reads, and for Read nothing (the *decoder.Error as it is).
	Name string
}

// File inspects the RDB file at path. Damage in the file is an error naming the path (or
// opts.Name) and the byte offset (a *decoder.Error).
func File(ctx context.Context, path string, opts Options) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("inspect: %w", err)
	}
	defer f.Close()
	if opts.Name == "" {
		opts.Name = path
	}
	return Read(ctx, f, opts)
}

// Read inspects the RDB file that r holds. An *os.File at its start lets the reader read
// long quicklists twice rather than hold them (decoder.Options.MaxHeldBytes). Damage in the
// file is a *decoder.Error, named with opts.Name when it is set.
func Read(ctx context.Context, r io.Reader, opts Options) (*Report, error) {
	rep, err := read(ctx, r, opts)
	var de *decoder.Error
	if opts.Name != "" && errors.As(err, &de) {
		return nil, fmt.Errorf("read %s: %w", opts.Name, err)
	}
	return rep, err
}

func read(ctx context.Context, r io.Reader, opts Options) (*Report, error) {
	if opts.Top == 0 {
		opts.Top = DefaultTop
	}
	if opts.Top < 0 {
		opts.Top = 0
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	if opts.Target != "" {
		if _, err := rdb.LookupTarget(opts.Target); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadOption, err)
		}
	}
	seeker, _ := r.(io.Seeker)
	var start int64
	if seeker != nil {
		var err error
		if start, err = seeker.Seek(0, io.SeekCurrent); err != nil {
			seeker = nil
		}
	}
	s, err := pass(ctx, r, opts, nil)
	if err != nil {
		return nil, err
	}
	if s.pre == nil || !s.pre.overflowed {
		return s.report()
	}
	// More prefixes than the table holds: its entries are the candidates, counted again
	// exactly when the file can be read again and that can tell the largest apart.
	bound := s.pre.bound()
	exact, again := s.pre.plan()
	switch {
	case exact:
		return s.report()
	case !again:
		bound = s.pre.listNone()
		exact = true // no row to count again
	case seeker != nil:
		if _, err := seeker.Seek(start, io.SeekStart); err != nil {
			return nil, fmt.Errorf("inspect: read the file again for the prefixes: %w", err)
		}
		if s, err = pass(ctx, r, opts, s.pre.candidates()); err != nil {
			return nil, err
		}
		exact = true
	}
	rep, err := s.report()
	if err != nil {
		return nil, err
	}
	if least, ok := leastListed(rep.Prefixes); !ok || !exact || least < bound {
		rep.PrefixBound = bound
	}
	return rep, nil
}

// leastListed returns the memory of the last prefix row that is not "other", false when
// there is none.
func leastListed(rows []Prefix) (int64, bool) {
	for i := len(rows) - 1; i >= 0; i-- {
		if !rows[i].Other {
			return rows[i].Memory, true
		}
	}
	return 0, false
}

// pass reads the file once into a sink; only, if set, restricts the prefixes counted.
func pass(ctx context.Context, r io.Reader, opts Options, only []string) (*sink, error) {
	// Inspect tells what a file holds, a valid one whole: the parts of Redis 8.6+ records no
	// record holds are read past and counted (Report.Newer), not refused.
	opts.Decoder.DropNewer = true
	rd, err := decoder.NewReader(r, opts.Decoder)
	if err != nil {
		return nil, err
	}
	s := newSink(rd, opts)
	if only != nil {
		s.pre.restrict(only)
	}
	s.feed = newPrefixFeed(s.pre)
	err = rd.WriteTo(ctx, s)
	s.feed.wait()
	return s, err
}

// defaultTarget chooses the memory estimate's target for a file of RDB version version
// with the AUX fields aux (see Options.Target).
func defaultTarget(version int, aux map[string]string) string {
	for _, f := range []struct{ field, prefix string }{{"valkey-ver", "valkey-"}, {"redis-ver", "redis-"}} {
		v, ok := aux[f.field]
		if !ok {
			continue
		}
		if major, rest, ok := strings.Cut(v, "."); ok {
			minor, _, _ := strings.Cut(rest, ".")
			if t, err := rdb.LookupTarget(f.prefix + major + "." + minor); err == nil && loads(t, version) {
				return t.Name
			}
		}
	}
	if version >= rdb.ValkeyVersion { // Valkey's own format, VALKEY080
		for _, t := range rdb.Targets() {
			if loads(t, version) {
				return t.Name
			}
		}
	}
	for _, t := range rdb.Targets() {
		if strings.HasPrefix(t.Name, "redis-") && t.RDBVersion == version {
			return t.Name
		}
	}
	return FallbackTarget
}

// loads reports whether the server of target t loads files of RDB version version: up to
// its own version, and Valkey's format (rdb.ValkeyVersion) where t reads it.
func loads(t rdb.Target, version int) bool {
	if version >= rdb.ValkeyVersion {
		return rdb.Capabilities{Target: t, RDBVersion: version}.Can(rdb.ValkeyFormat)
	}
	return t.RDBVersion >= version
}

// newEstimator returns a memory.Estimator for the file rd reads, whose AUX fields are read.
func newEstimator(rd *decoder.Reader, opts Options) (*memory.Estimator, error) {
	target := opts.Target
	if target == "" {
		target = defaultTarget(rd.Version(), rd.Aux())
	}
	return memory.New(memory.Options{Target: target, Thresholds: opts.Thresholds, Allocator: opts.Allocator})
}

var _ record.Sink = (*sink)(nil)
