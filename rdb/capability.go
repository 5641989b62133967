package rdb

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Feature is something an RDB file holds, or a way it encodes something, that only some
// RDB versions (and, for a few, only some servers) have. The capability table below says, for
// each, the first RDB version that holds it: the Writer, and every caller that must know
// before writing what a target can hold (convert, load, the CLI), ask it through Can,
// Target.Can and Capabilities.Can.
type Feature uint8

// Features, in the order of the RDB version that brought them.
const (
	// BinaryScores: sorted-set scores as binary doubles (type 5); text scores before.
	BinaryScores Feature = iota + 1
	// ModuleValues: module values in the self-describing form (type 7, Redis 4.0).
	ModuleValues
	// Streams: stream keys (type 15).
	Streams
	// ModuleAux: a module's AUX data beside the keyspace (opcode 247, Redis 5.0).
	ModuleAux
	// StreamMetadata: a stream's first id, largest deleted id and entries added, and its
	// groups' entries read (type 19); without them the loader derives what it can.
	StreamMetadata
	// Functions: function libraries (opcode 245).
	Functions
	// ListpackEncodings: hashes and sorted sets as listpacks, lists as quicklists of
	// listpacks (types 16, 17, 18); ziplists before.
	ListpackEncodings
	// PlainListNodes: a list element over the node size limit in a node of its own, as the
	// server makes it (Redis 7.4, Valkey 8.0); older servers make one only from 1 GiB.
	PlainListNodes
	// ConsumerActiveTime: a stream consumer's active time (type 21).
	ConsumerActiveTime
	// SetListpack: small sets of strings as listpacks (type 20); hash tables before.
	SetListpack
	// HashFieldTTL: hashes whose fields expire (types 24, 25; Valkey's type 22 in
	// VALKEY080).
	HashFieldTTL
	// ValkeyFormat: Valkey 9's own format, the magic VALKEY and RDB 80 (ValkeyVersion), in
	// which a hash with field TTLs is Valkey's type 22 (rdbSaveObject, Valkey's rdb.c);
	// every other type is written as for RDB 11. Only Valkey 9.0 and later load it.
	ValkeyFormat
)

// What a version without a feature does with what needs it.
const (
	refused = iota // the record cannot be written: an error wrapping ErrCannotHold
	encoded        // written in an older encoding
	omitted        // written without it
)

// A capability is one row of the table.
type capability struct {
	name  string // in messages
	since int    // the first RDB version that holds it
	// redis and valkey, when set, are the first release of that server that makes it: a
	// target of an older release does without, whatever its version.
	redis, valkey string
	without       int // refused, encoded or omitted
	// only, when set, is the one server family ("valkey") whose files may hold it.
	only string
}

// capabilities is the table: one row per feature. A new record type, encoding or field is
// one row here (and its constant above); a new server release is one row of targets.
var capabilities = [...]capability{
	BinaryScores:       {"sorted-set scores as binary doubles", 8, "", "", encoded, ""},
	ModuleValues:       {"a module value", 8, "", "", refused, ""},
	Streams:            {"a stream", 9, "", "", refused, ""},
	ModuleAux:          {"module AUX data", 9, "", "", refused, ""},
	StreamMetadata:     {"stream metadata (first id, largest deleted id, entries added, entries read)", 10, "", "", omitted, ""},
	Functions:          {"a function library", 10, "", "", refused, ""},
	ListpackEncodings:  {"hash, sorted-set and list listpacks", 10, "", "", encoded, ""},
	PlainListNodes:     {"plain list nodes for elements over the node size", 10, "7.4", "8.0", encoded, ""},
	ConsumerActiveTime: {"stream consumers' active time", 11, "", "", omitted, ""},
	SetListpack:        {"set listpacks", 11, "", "", encoded, ""},
	HashFieldTTL:       {"a hash with field TTLs", 12, "", "", refused, ""},
	ValkeyFormat:       {"Valkey 9's VALKEY080 format", ValkeyVersion, "", "9.0", refused, "valkey"},
}

// Features returns every feature a record may need, in the order of the RDB version that
// brought them: all but ValkeyFormat, which is a file's format, not something a record
// needs (a file holds every other feature of RDB 11 and HashFieldTTL in it).
func Features() []Feature {
	fs := make([]Feature, 0, len(capabilities)-1)
	for f := range capabilities[1:] {
		if Feature(f+1) != ValkeyFormat {
			fs = append(fs, Feature(f+1))
		}
	}
	return fs
}

func (f Feature) row() capability {
	if f == 0 || int(f) >= len(capabilities) {
		panic("rdb: unknown feature " + strconv.Itoa(int(f)))
	}
	return capabilities[f]
}

// String names the feature as messages do: "a stream", "a function library".
func (f Feature) String() string {
	if f == 0 || int(f) >= len(capabilities) {
		return "feature " + strconv.Itoa(int(f))
	}
	return f.row().name
}

// Since returns the first RDB version that holds f.
func (f Feature) Since() int { return f.row().since }

// Refused reports whether a record that needs f cannot be written where f is missing (a
// stream, a library, a hash with field TTLs), rather than written in an older encoding or
// without the parts that need it.
func (f Feature) Refused() bool { return f.row().without == refused }

// FirstTarget returns the oldest target that holds every one of fs (Redis first, then
// Valkey), and false when none does. FirstTarget(Features()...) holds whatever a file may.
func FirstTarget(fs ...Feature) (Target, bool) {
	for _, t := range targets {
		if !slices.ContainsFunc(fs, func(f Feature) bool { return !t.Can(f) }) {
			return t, true
		}
	}
	return Target{}, false
}

// Can reports whether RDB version holds f, in its format: a file of that version may use it.
// Whether a file for a given target does is Target.Can or Capabilities.Can.
func Can(version int, f Feature) bool { return version >= f.row().since }

// Can reports whether a file for t, in its own RDB version, holds f.
func (t Target) Can(f Feature) bool { return Capabilities{Target: t, RDBVersion: t.RDBVersion}.Can(f) }

// Capabilities are what a file for a target in an RDB version (no newer than the target
// loads) can hold; the writer's Options.Check returns them.
type Capabilities struct {
	Target     Target
	RDBVersion int
	// DropFieldTTL is the writer's Options.DropFieldTTL: a hash with field TTLs is written without them
	// where the file cannot hold them.
	DropFieldTTL bool
}

// Can reports whether the file holds f: its RDB version does, and the target's server, where
// the table names a first release, is that release or later.
func (c Capabilities) Can(f Feature) bool {
	r := f.row()
	if !Can(c.RDBVersion, f) {
		return false
	}
	family, release := c.Target.release()
	if r.only != "" && family != r.only {
		return false
	}
	first := r.redis
	if family == "valkey" {
		first = r.valkey
	}
	return first == "" || !releaseBefore(release, first)
}

// release returns the server family ("redis" or "valkey") and release ("7.2") of the
// target: those of the server whose version its file names (a managed service's too).
func (t Target) release() (family, release string) {
	family = "redis"
	if t.VersionAux == "valkey-ver" {
		family = "valkey"
	}
	major, rest, _ := strings.Cut(t.AuxVer, ".")
	minor, _, _ := strings.Cut(rest, ".")
	return family, major + "." + minor
}

// releaseBefore reports whether release a ("7.2") comes before b.
func releaseBefore(a, b string) bool {
	amaj, amin, _ := strings.Cut(a, ".")
	bmaj, bmin, _ := strings.Cut(b, ".")
	x, _ := strconv.Atoi(amaj)
	y, _ := strconv.Atoi(bmaj)
	if x != y {
		return x < y
	}
	x, _ = strconv.Atoi(amin)
	y, _ = strconv.Atoi(bmin)
	return x < y
}

// ErrCannotHold is wrapped by the errors for a record the file's RDB version cannot hold (see
// CannotHoldError).
var ErrCannotHold = errors.New("rdb: the RDB version cannot hold it")

// A CannotHoldError is the error for a record that needs a feature the file lacks. Its
// message names the feature, the RDB version that brought it and the oldest target that has
// it, and what the file is written as. It wraps ErrCannotHold.
type CannotHoldError struct {
	Feature Feature
	In      Capabilities // what the file is written as
}

// Refuse returns the error for a record that needs f, which c lacks.
func (c Capabilities) Refuse(f Feature) *CannotHoldError {
	return &CannotHoldError{Feature: f, In: c}
}

// VersionTooOld reports whether the target itself holds the feature, in its own RDB
// version: the version the file is written as, set below the target's (Options.RDBVersion),
// is what lacks it.
func (e *CannotHoldError) VersionTooOld() bool { return e.In.Target.Can(e.Feature) }

func (e *CannotHoldError) Error() string {
	f, t := e.Feature, e.In.Target
	if e.VersionTooOld() {
		return fmt.Sprintf("%s needs RDB %d, and the file is written as RDB %d, below %s's own %d",
			f, f.Since(), e.In.RDBVersion, t.Name, t.RDBVersion)
	}
	first := "no target has it"
	if ft, ok := FirstTarget(f); ok {
		first = ft.Name + " or later"
	}
	if e.In.RDBVersion != t.RDBVersion {
		return fmt.Sprintf("%s needs RDB %d (%s), and the file is written as RDB %d for %s", f, f.Since(), first, e.In.RDBVersion, t.Name)
	}
	return fmt.Sprintf("%s needs RDB %d (%s), and %s writes RDB %d", f, f.Since(), first, t.Name, e.In.RDBVersion)
}

// Unwrap returns ErrCannotHold.
func (e *CannotHoldError) Unwrap() error { return ErrCannotHold }
