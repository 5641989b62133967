package resp

import (
	"fmt"

	"github.com/rdbgen/rdbgen/rdb"
)

// A Version is a server's version, major.minor. The zero Version means the newest
// server: every command is available.
type Version struct{ Major, Minor int }

// ParseVersion parses "7.0" or "7.0.15" (the patch level is ignored).
func ParseVersion(s string) (Version, error) {
	var v Version
	var rest string
	n, err := fmt.Sscanf(s, "%d.%d%s", &v.Major, &v.Minor, &rest)
	if (err != nil && n < 2) || v.Major < 1 || v.Minor < 0 {
		return Version{}, fmt.Errorf("%w: server version %q (want major.minor, e.g. 7.0)", ErrInvalidOption, s)
	}
	return v, nil
}

// String formats v as "major.minor", "newest" for the zero Version.
func (v Version) String() string {
	if v == (Version{}) {
		return "newest"
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// AtLeast reports whether a server of version v has what major.minor brought.
func (v Version) AtLeast(major, minor int) bool {
	return v == (Version{}) || v.Major > major || (v.Major == major && v.Minor >= minor)
}

// Has reports whether a server of version v has f: whether its RDB version holds it, by
// the encoder's capability table.
func (v Version) Has(f rdb.Feature) bool { return rdb.Can(v.RDBVersion(), f) }

// FirstVersion returns the version of the oldest Redis that has f.
func FirstVersion(f rdb.Feature) Version {
	t, _ := rdb.FirstTarget(f)
	v, _ := ParseVersion(t.ServerVer)
	return v
}

// TargetVersion returns the version of the server of an encoder target ("redis-6.2",
// "valkey-8.0"; "" is rdb.DefaultTarget), so that a RESP stream written for a target
// loads into the servers its RDB file loads into.
func TargetVersion(target string) (Version, error) {
	t, err := rdb.LookupTarget(target)
	if err != nil {
		return Version{}, err
	}
	return ParseVersion(t.ServerVer)
}
