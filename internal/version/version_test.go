package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuild(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "5a894fd1a2b3c4d5e6f708192a3b4c5d6e7f8091"},
		{Key: "vcs.time", Value: "2026-12-07T19:51:12Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	main := func(v string) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: modulePath, Version: v}, Settings: vcs}
	}
	tests := []struct {
		name          string
		bi            *debug.BuildInfo
		rel, rev, at  string
		wantRelease   string
		wantRevision  string
		wantModule    string
		wantModified  bool
		wantGoVersion string
	}{
		{"no build information", nil, "", "", "", Unreleased, "", "", false, ""},
		{"go test or go run", main("(devel)"), "", "", "", Unreleased, vcs[1].Value, "(devel)", true, "go1.26.0"},
		{"go build of a modified tree", main("v0.1.1-0.20261207195112-5a894fd1a2b3+dirty"), "", "", "", Unreleased, vcs[1].Value, "v0.1.1-0.20261207195112-5a894fd1a2b3+dirty", true, "go1.26.0"},
		{"go build past a tag", main("v1.2.1-0.20261207195112-5a894fd1a2b3"), "", "", "", Unreleased, vcs[1].Value, "v1.2.1-0.20261207195112-5a894fd1a2b3", true, "go1.26.0"},
		{"pseudo-version of an untagged module", main("v0.0.0-20261207195112-5a894fd1a2b3"), "", "", "", Unreleased, vcs[1].Value, "v0.0.0-20261207195112-5a894fd1a2b3", true, "go1.26.0"},
		{"go build on a tag", main("v1.2.0"), "", "", "", "1.2.0", vcs[1].Value, "v1.2.0", true, "go1.26.0"},
		{"a pre-release tag", main("v1.2.0-rc.1"), "", "", "", "1.2.0-rc.1", vcs[1].Value, "v1.2.0-rc.1", true, "go1.26.0"},
		{"ldflags release", main("(devel)"), "v1.3.0", "ffff", "2027-01-01T00:00:00Z", "1.3.0", vcs[1].Value, "(devel)", true, "go1.26.0"},
		{"ldflags without v", main("v1.2.0"), "1.3.0", "", "", "1.3.0", vcs[1].Value, "v1.2.0", true, "go1.26.0"},
		{"ldflags without VCS information", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: modulePath, Version: "(devel)"}},
			"1.3.0", "abc123", "2027-01-01T00:00:00Z", "1.3.0", "abc123", "(devel)", false, "go1.26.0"},
		{"rdbgen as a library", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/app", Version: "v9.9.9"},
			Deps: []*debug.Module{{Path: "github.com/redis/go-redis/v9", Version: "v9.23.0"}, {Path: modulePath, Version: "v1.4.0"}}},
			"", "", "", "1.4.0", "", "v1.4.0", false, "go1.26.0"},
		{"a program without rdbgen's module", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/app", Version: "v9.9.9"}},
			"", "", "", Unreleased, "", "", false, "go1.26.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := fromBuild(tt.bi, tt.rel, tt.rev, tt.at)
			if in.Release != tt.wantRelease || in.Revision != tt.wantRevision || in.Module != tt.wantModule || in.Modified != tt.wantModified {
				t.Errorf("got release %q revision %q module %q modified %v, want %q %q %q %v",
					in.Release, in.Revision, in.Module, in.Modified, tt.wantRelease, tt.wantRevision, tt.wantModule, tt.wantModified)
			}
			if tt.wantGoVersion != "" && in.Go != tt.wantGoVersion {
				t.Errorf("go %q, want %q", in.Go, tt.wantGoVersion)
			}
			if in.Platform == "" || !strings.Contains(in.Platform, "/") {
				t.Errorf("platform %q", in.Platform)
			}
		})
	}
}

func TestIsRelease(t *testing.T) {
	tests := map[string]bool{
		"v1.2.0": true, "v0.1.0": true, "v1.2.0-rc.1": true, "v2.0.0-beta": true, "v1.2.0-alpha.20261207195112": true,
		"": false, "(devel)": false, "1.2.0": false, "v1.2": false, "v1.2.x": false, "v1.2.0+dirty": false,
		"v0.0.0-20261207195112-5a894fd1a2b3": false, "v1.2.1-0.20261207195112-5a894fd1a2b3": false,
		"v1.2.0-rc.1.0.20261207195112-5a894fd1a2b3": false, "v1.2.0-rc.1.0.20261207195112-5a894fd1a2b3+dirty": false,
	}
	for v, want := range tests {
		if got := isRelease(v); got != want {
			t.Errorf("isRelease(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		in   Info
		want string
	}{
		{Info{Release: "0.1.0", Go: "go1.26.0", Platform: "linux/amd64"}, "0.1.0 (revision unknown: built with -buildvcs=false or in a git worktree; go1.26.0 linux/amd64)"},
		{Info{Release: "0.1.0", Module: "(devel)", Go: "go1.26.0", Platform: "linux/amd64"}, "0.1.0 (revision unknown: built with -buildvcs=false or in a git worktree; go1.26.0 linux/amd64)"},
		{Info{Release: "1.2.0", Module: "v1.2.0", Go: "go1.26.0", Platform: "linux/amd64"}, "1.2.0 (go1.26.0 linux/amd64)"},
		{Info{Release: "0.1.0", Revision: "5a894fd1a2b3c4d5e6f7", Time: "2026-12-07T19:51:12Z", Modified: true, Go: "go1.26.0", Platform: "linux/arm64"},
			"0.1.0 (revision 5a894fd1a2b3, 2026-12-07T19:51:12Z, modified; go1.26.0 linux/arm64)"},
		{Info{Release: "1.2.0", Revision: "abc", Go: "go1.26.0", Platform: "darwin/arm64"}, "1.2.0 (revision abc; go1.26.0 darwin/arm64)"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}
