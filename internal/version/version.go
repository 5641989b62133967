// Package version says which build of rdbgen is running: its release, the revision and time
// of the commit it was built from, whether that tree had changes, and the Go release that
// built it. Most of it comes from the build information the go command stamps into the
// binary (runtime/debug.ReadBuildInfo); a release build sets the rest with -ldflags:
//
//	go build -ldflags "-X github.com/rdbgen/rdbgen/internal/version.release=1.2.0" ./cmd/rdbgen
//
// (also .revision and .revisionTime, for builds without VCS information, e.g. from a source archive).
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Unreleased is the release of a build that is not one: neither built with -ldflags naming a
// release nor installed from a tagged module version. It is the number every build carried
// before releases were made, kept so that the files a development build writes do not change
// from one commit to the next (Info.Revision tells those builds apart).
const Unreleased = "0.1.0"

// modulePath is rdbgen's module: its version is looked up among a program's dependencies when
// rdbgen is used as a library.
const modulePath = "github.com/rdbgen/rdbgen"

// Set by -ldflags "-X ..." for a release build; empty otherwise.
var (
	release      string // the release, e.g. 1.2.0 (a leading v is dropped)
	revision     string // the commit, when the build has no VCS information
	revisionTime string // the commit's time, RFC 3339, likewise
)

// Info describes the running build.
type Info struct {
	// Release is the release, e.g. "1.2.0", without a leading v; Unreleased for a build that
	// is not a release. Files rdbgen writes carry it (the rdbgen-ver AUX field).
	Release string `json:"release"`
	// Module is the main module's version as the go command stamped it: "v1.2.0", a
	// pseudo-version such as "v0.1.1-0.20261207195112-5a894fd1a2b3+dirty", or "(devel)";
	// empty when unknown.
	Module string `json:"module_version,omitempty"`
	// Revision is the VCS commit the binary was built from; empty when unknown.
	Revision string `json:"revision,omitempty"`
	// Time is the commit's time (RFC 3339); empty when unknown.
	Time string `json:"time,omitempty"`
	// Modified says whether the tree had changes not committed at build time.
	Modified bool `json:"modified"`
	// Go is the Go release that built the binary, e.g. "go1.26.0".
	Go string `json:"go"`
	// Platform is the binary's GOOS/GOARCH.
	Platform string `json:"platform"`
}

// Get returns the running build's Info.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuild(bi, release, revision, revisionTime)
}

// Release returns the running build's release: Get().Release.
func Release() string { return Get().Release }

// fromBuild returns the Info of a build with information bi (nil when the binary has none)
// and the -ldflags values rel, rev and at (empty when not set).
func fromBuild(bi *debug.BuildInfo, rel, rev, at string) Info {
	in := Info{Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		in.Go = bi.GoVersion
		mod := &bi.Main
		if mod.Path != modulePath {
			mod = nil
			for _, d := range bi.Deps {
				if d.Path == modulePath {
					mod = d
					break
				}
			}
		}
		if mod != nil {
			in.Module = mod.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Revision = s.Value
			case "vcs.time":
				in.Time = s.Value
			case "vcs.modified":
				in.Modified = s.Value == "true"
			}
		}
	}
	in.Release = Unreleased
	switch {
	case rel != "":
		in.Release = strings.TrimPrefix(rel, "v")
	case isRelease(in.Module):
		in.Release = strings.TrimPrefix(in.Module, "v")
	}
	if in.Revision == "" {
		in.Revision = rev
	}
	if in.Time == "" {
		in.Time = at
	}
	return in
}

// isRelease reports whether v, a module version, names a tagged release: vMAJOR.MINOR.PATCH
// with an optional pre-release, not a pseudo-version (whose pre-release ends in
// yyyymmddhhmmss-commit) nor a build from a modified tree (+dirty).
func isRelease(v string) bool {
	if !strings.HasPrefix(v, "v") || strings.Contains(v, "+") {
		return false
	}
	core, pre, _ := strings.Cut(v[1:], "-")
	if parts := strings.Split(core, "."); len(parts) != 3 || !allDigits(parts...) {
		return false
	}
	if pre == "" {
		return true
	}
	// A pseudo-version's last two pre-release fields: a 14-digit time and a 12-digit commit.
	fields := strings.FieldsFunc(pre, func(r rune) bool { return r == '.' || r == '-' })
	n := len(fields)
	return n < 2 || len(fields[n-2]) != 14 || !allDigits(fields[n-2]) || len(fields[n-1]) != 12
}

// allDigits reports whether every s is a non-empty run of decimal digits.
func allDigits(ss ...string) bool {
	for _, s := range ss {
		if s == "" || strings.Trim(s, "0123456789") != "" {
			return false
		}
	}
	return true
}

// String is the one line `rdbgen --version` prints after the program's name, e.g.
// "0.1.0 (revision 5a894fd1a2b3, 2026-12-07T19:51:12Z, modified; go1.26.0 linux/amd64)".
func (in Info) String() string {
	var parts []string
	if in.Revision != "" {
		rev := in.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		parts = append(parts, "revision "+rev)
	}
	if in.Revision == "" && (in.Module == "" || in.Module == "(devel)") {
		// Go stamps no revision with -buildvcs=false, nor in a linked git worktree (whose
		// .git is a file: golang/go#58218).
		parts = append(parts, "revision unknown: built with -buildvcs=false or in a git worktree")
	}
	if in.Time != "" {
		parts = append(parts, in.Time)
	}
	if in.Modified {
		parts = append(parts, "modified")
	}
	build := in.Go + " " + in.Platform
	if len(parts) > 0 {
		build = strings.Join(parts, ", ") + "; " + build
	}
	return fmt.Sprintf("%s (%s)", in.Release, build)
}
