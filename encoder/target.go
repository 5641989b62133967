package encoder

import (
	"errors"
	"fmt"
	"strings"
)

// A Target is a server release that a file is written for: it fixes the RDB version in the
// header, the redis-ver AUX field, and so the encodings the file may use.
type Target struct {
	Name       string // as given to --target, e.g. "redis-7.2"
	RDBVersion int    // the version in the header
	ServerVer  string // the redis-ver AUX field
}

// DefaultTarget is the target used when none is named: RDB version 9 with plain encodings,
// which every Redis from 5.0 and every Valkey loads.
const DefaultTarget = "redis-5.0"

// Known RDB versions this package writes.
const (
	MinVersion = 7  // the first version with AUX fields and RESIZEDB
	MaxVersion = 12 // Redis 7.4 and 8.x
)

// ErrUnknownTarget is returned for a target name that is not in Targets.
var ErrUnknownTarget = errors.New("unknown target")

var targets = []Target{
	{"redis-5.0", 9, "5.0.0"},
	{"redis-6.0", 9, "6.0.0"},
	{"redis-6.2", 9, "6.2.0"},
	{"redis-7.0", 10, "7.0.0"},
	{"redis-7.2", 11, "7.2.0"},
	{"redis-7.4", 12, "7.4.0"},
	{"redis-8.0", 12, "8.0.0"},
	{"redis-8.2", 12, "8.2.0"},
	{"valkey-7.2", 11, "7.2.4"},
	{"valkey-8.0", 11, "7.2.4"},
	{"valkey-8.1", 11, "7.2.4"},
	{"valkey-9.0", 11, "7.2.4"},
}

// Targets returns the known targets, oldest first.
func Targets() []Target { return append([]Target(nil), targets...) }

// TargetNames returns the names of the known targets, oldest first.
func TargetNames() []string {
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.Name
	}
	return names
}

// LookupTarget returns the target with the given name; the empty name means DefaultTarget.
func LookupTarget(name string) (Target, error) {
	if name == "" {
		name = DefaultTarget
	}
	for _, t := range targets {
		if strings.EqualFold(t.Name, name) {
			return t, nil
		}
	}
	return Target{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownTarget, name, strings.Join(TargetNames(), ", "))
}
