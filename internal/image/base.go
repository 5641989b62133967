package image

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/internal/dockercli"
	"github.com/rdbgen/rdbgen/rdb"
)

// A Server is the Redis or Valkey release a base image runs, and how rdbgen knows it.
type Server struct {
	// Family is "redis" or "valkey".
	Family string
	// Version is the release, "7.4" or "7.4.1"; a major version alone ("7") means the
	// newest minor release of that major.
	Version string
	// Source says where the release was read: "tag" (the image reference's tag) or
	// "REDIS_VERSION" / "VALKEY_VERSION" (the image's environment).
	Source string
	// MaxRDBVersion is the highest RDB version the release loads.
	MaxRDBVersion int
}

// Command returns the server's executable: "redis-server" or "valkey-server".
func (s Server) Command() string { return s.Family + "-server" }

// String describes s as "Redis 7.4 (from the tag)".
func (s Server) String() string {
	name := "Redis"
	if s.Family == "valkey" {
		name = "Valkey"
	}
	from := "the tag"
	if s.Source != "tag" {
		from = "the image's " + s.Source
	}
	return fmt.Sprintf("%s %s (from %s)", name, s.Version, from)
}

// redisLoads maps Redis major.minor releases to the highest RDB version they load, newest
// first: a release loads what the newest entry at or below it loads. Redis 7.4 and later
// load version 12, the newest rdbgen writes.
var redisLoads = []struct {
	major, minor, rdb int
}{
	{7, 4, 12},
	{7, 2, 11},
	{7, 0, 10},
	{5, 0, 9},
	{4, 0, 8},
	{3, 2, 7},
	{0, 0, 6},
}

// newestMinor is the newest minor release of each Redis major, for tags that name a major
// alone ("redis:7" is 7.4).
var newestMinor = map[int]int{3: 2, 4: 0, 5: 0, 6: 2, 7: 4}

// maxRDBVersion returns the highest RDB version a release loads. Every Valkey from 7.2 loads
// version 11 and, by default, refuses 12 and later. Redis releases newer than this table
// knows load every version rdbgen writes.
func maxRDBVersion(family string, major, minor int, minorKnown bool) (int, bool) {
	if family == "valkey" {
		if major > 7 || major == 7 && (minor >= 2 || !minorKnown) {
			return 11, true
		}
		return 0, false // Valkey began at 7.2
	}
	if !minorKnown {
		if m, ok := newestMinor[major]; ok {
			minor = m
		} else if major > 7 {
			minor = 0
		} else {
			return 0, false
		}
	}
	for _, r := range redisLoads {
		if major > r.major || major == r.major && minor >= r.minor {
			return r.rdb, true
		}
	}
	return 0, false
}

// parseVersion reads the release at the start of a tag or a version variable: "7.4.1",
// "7.4-alpine", "8.0-M02", "7-bookworm", "7".
func parseVersion(s string) (major, minor int, minorKnown, ok bool) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 4 {
		return 0, 0, false, false
	}
	major, _ = strconv.Atoi(s[:i])
	rest := s[i:]
	if rest != "" && rest[0] != '.' && rest[0] != '-' {
		return 0, 0, false, false
	}
	if !strings.HasPrefix(rest, ".") {
		return major, 0, false, true
	}
	j := 1
	for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
		j++
	}
	if j == 1 || j > 5 {
		return 0, 0, false, false
	}
	minor, _ = strconv.Atoi(rest[1:j])
	return major, minor, true, true
}

// splitRef returns the repository of an image reference, lower case without registry port
// confusion, and its tag ("latest" when there is none); a digest is dropped.
func splitRef(ref string) (repo, tag string) {
	ref, _, _ = strings.Cut(ref, "@")
	tag = "latest"
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref, tag = ref[:i], ref[i+1:]
	}
	return strings.ToLower(ref), tag
}

// familyOf tells whether a repository holds Redis or Valkey, by the last part of its name.
func familyOf(repo string) string {
	name := repo[strings.LastIndex(repo, "/")+1:]
	switch {
	case strings.Contains(name, "valkey"):
		return "valkey"
	case strings.Contains(name, "redis"):
		return "redis"
	}
	return ""
}

// fromVersion returns the server of family at version, if the table knows it.
func fromVersion(family, version, source string) (Server, bool) {
	major, minor, minorKnown, ok := parseVersion(version)
	if !ok {
		return Server{}, false
	}
	rdb, ok := maxRDBVersion(family, major, minor, minorKnown)
	if !ok {
		return Server{}, false
	}
	v := strconv.Itoa(major)
	if minorKnown {
		v += "." + strconv.Itoa(minor)
	}
	return Server{Family: family, Version: v, Source: source, MaxRDBVersion: rdb}, true
}

// ServerOf tells which server the base image ref runs: from its tag ("redis:7.4-alpine"),
// else from the REDIS_VERSION or VALKEY_VERSION variable that the official images set, when
// docker has the image. ok is false when neither says.
func ServerOf(ctx context.Context, docker dockercli.Client, ref string) (s Server, ok bool) {
	repo, tag := splitRef(ref)
	if family := familyOf(repo); family != "" {
		if s, ok := fromVersion(family, tag, "tag"); ok {
			return s, true
		}
	}
	out, err := docker.Run(ctx, nil, "image", "inspect", "--format", "{{json .Config.Env}}", ref)
	if err != nil {
		return Server{}, false
	}
	var env []string
	if json.Unmarshal([]byte(out), &env) != nil {
		return Server{}, false
	}
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		family := strings.ToLower(strings.TrimSuffix(name, "_VERSION"))
		if (family == "redis" || family == "valkey") && name == strings.ToUpper(family)+"_VERSION" {
			if s, ok := fromVersion(family, value, name); ok {
				return s, true
			}
		}
	}
	return Server{}, false
}

// officialEntrypoint is the entrypoint of the official Redis and Valkey images.
var officialEntrypoint = []string{"docker-entrypoint.sh"}

// entrypointOf returns the entrypoint of the base image ref, as docker reports it. When
// docker has no copy of ref (it is pulled by the build), an official Redis or Valkey
// repository is taken to have the official images' entrypoint, and any other none.
func entrypointOf(ctx context.Context, docker dockercli.Client, ref string) []string {
	out, err := docker.Run(ctx, nil, "image", "inspect", "--format", "{{json .Config.Entrypoint}}", ref)
	if err != nil {
		repo, _ := splitRef(ref)
		if familyOf(repo) != "" {
			return officialEntrypoint
		}
		return nil
	}
	var entry []string
	if json.Unmarshal([]byte(out), &entry) != nil {
		return nil
	}
	return entry
}

// checkLoads returns an ErrTooNew error when s cannot load a file of rdbVersion.
func checkLoads(base string, s Server, dump string, rdbVersion int) error {
	if rdbVersion <= s.MaxRDBVersion {
		return nil
	}
	hint := ""
	for _, t := range rdb.Targets() {
		if t.RDBVersion > s.MaxRDBVersion || !strings.HasPrefix(t.Name, s.Family+"-") {
			continue
		}
		if hint == "" || !strings.HasSuffix(hint, s.Family+"-"+s.Version) {
			hint = t.Name
		}
	}
	if hint != "" {
		hint = "; write the dump with --target " + hint + ", or pick a newer base image"
	}
	return fmt.Errorf("%w: %s is RDB version %d, and base image %s runs %s, which loads versions up to %d%s",
		ErrTooNew, dump, rdbVersion, base, s, s.MaxRDBVersion, hint)
}
