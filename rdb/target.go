package rdb

import (
	"errors"
	"fmt"
	"strings"
)

// A Target is a server release that a file is written for: it fixes the RDB version in the
// header (the newest that server loads), the AUX field naming the server, and so what the
// file may hold and the encodings it may use (Target.Can).
type Target struct {
	Name       string // as given to --target, e.g. "redis-7.2"
	RDBVersion int    // the version in the header, and the newest the server loads
	// ServerVer is the Redis version whose commands and encodings the server has: for Valkey,
	// 7.2.4, the Redis it forked.
	ServerVer string
	// VersionAux is the AUX field that names the server's version: "redis-ver", or
	// "valkey-ver" for Valkey (which writes no redis-ver); AuxVer is the version written in it.
	VersionAux, AuxVer string
}

// DefaultTarget is the target used when none is named: RDB version 9 with plain encodings,
// which every Redis from 5.0 and every Valkey loads.
const DefaultTarget = "redis-5.0"

// The RDB versions rdbgen writes.
const (
	MinVersion = 7  // the first version with AUX fields and RESIZEDB
	MaxVersion = 12 // Redis 7.4 and 8.x
	// ValkeyVersion is Valkey 9.0's format, written with the magic VALKEY (VALKEY080) on
	// request (the writer's Options.RDBVersion) for a target that holds ValkeyFormat (valkey-9.0): the
	// only form in which Valkey 9 loads a hash with field TTLs.
	ValkeyVersion = 80
)

// Errors of targets and options, for errors.Is.
var (
	// ErrUnknownTarget is returned for a target name that is not in Targets.
	ErrUnknownTarget = errors.New("rdb: unknown target")
	// ErrInvalidOption is wrapped by the errors of an option out of range: a target and RDB
	// version that do not go together, a threshold, a writer's buffer size.
	ErrInvalidOption = errors.New("rdb: invalid option")
)

// Valkey 9.0 writes its own format (magic VALKEY, RDB 80) but loads files up to RDB 11 with
// the REDIS magic: its target writes those, and VALKEY080 when asked (ValkeyVersion).
var targets = []Target{
	{"redis-5.0", 9, "5.0.0", "redis-ver", "5.0.0"},
	{"redis-6.0", 9, "6.0.0", "redis-ver", "6.0.0"},
	{"redis-6.2", 9, "6.2.0", "redis-ver", "6.2.0"},
	{"redis-7.0", 10, "7.0.0", "redis-ver", "7.0.0"},
	{"redis-7.2", 11, "7.2.0", "redis-ver", "7.2.0"},
	{"redis-7.4", 12, "7.4.0", "redis-ver", "7.4.0"},
	{"redis-8.0", 12, "8.0.0", "redis-ver", "8.0.0"},
	{"redis-8.2", 12, "8.2.0", "redis-ver", "8.2.0"},
	{"redis-8.4", 12, "8.4.0", "redis-ver", "8.4.0"},
	{"valkey-7.2", 11, "7.2.4", "valkey-ver", "7.2.4"},
	{"valkey-8.0", 11, "7.2.4", "valkey-ver", "8.0.0"},
	{"valkey-8.1", 11, "7.2.4", "valkey-ver", "8.1.0"},
	{"valkey-9.0", 11, "7.2.4", "valkey-ver", "9.0.0"},
	// Managed services (see Service for their rules): ElastiCache runs Redis OSS up to 7.1,
	// which reads RDB 10 as Redis 7.0 does, and Valkey; Memorystore loads the same or an
	// older version; Redis Cloud is held to RDB 11, which every version it runs loads.
	{"elasticache-redis-7.1", 10, "7.0.0", "redis-ver", "7.0.0"},
	{"elasticache-valkey-7.2", 11, "7.2.4", "valkey-ver", "7.2.4"},
	{"elasticache-valkey-8.0", 11, "7.2.4", "valkey-ver", "8.0.0"},
	{"memorystore-redis-7.2", 11, "7.2.0", "redis-ver", "7.2.0"},
	{"redis-cloud", 11, "7.2.0", "redis-ver", "7.2.0"},
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

// ResolveTarget returns the target a file is written for: the named one, which must load
// version (0: its own); or, when none is named, the oldest Redis that loads version (and
// with neither, DefaultTarget). An unknown name is ErrUnknownTarget; a version out of range,
// or newer than the target loads, ErrInvalidOption.
func ResolveTarget(name string, version int) (Target, error) {
	if version == ValkeyVersion {
		return valkeyTarget(name)
	}
	if version != 0 && (version < MinVersion || version > MaxVersion) {
		return Target{}, fmt.Errorf("%w: rdb version %d (supported: %d to %d)", ErrInvalidOption, version, MinVersion, MaxVersion)
	}
	if name == "" && version > 0 {
		for _, t := range targets {
			if t.RDBVersion >= version {
				return t, nil
			}
		}
	}
	t, err := LookupTarget(name)
	if err != nil {
		return Target{}, err
	}
	if version > t.RDBVersion {
		return Target{}, fmt.Errorf("%w: rdb version %d is newer than %s loads (%d)", ErrInvalidOption, version, t.Name, t.RDBVersion)
	}
	return t, nil
}

// valkeyTarget returns the target of a file of ValkeyVersion: the named one, which must
// hold ValkeyFormat; or, when none is named, the oldest that does.
func valkeyTarget(name string) (Target, error) {
	holds := func(t Target) bool {
		return Capabilities{Target: t, RDBVersion: ValkeyVersion}.Can(ValkeyFormat)
	}
	if name == "" {
		for _, t := range targets {
			if holds(t) {
				return t, nil
			}
		}
	}
	t, err := LookupTarget(name)
	if err != nil {
		return Target{}, err
	}
	if !holds(t) {
		return Target{}, fmt.Errorf("%w: rdb version %d is Valkey 9's VALKEY080, which %s does not load", ErrInvalidOption, ValkeyVersion, t.Name)
	}
	return t, nil
}
