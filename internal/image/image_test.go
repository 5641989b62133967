package image

import (
	"context"
	"debug/elf"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/dockercli"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in           string
		major, minor int
		minorKnown   bool
		ok           bool
	}{
		{"7.4", 7, 4, true, true},
		{"7.4.1", 7, 4, true, true},
		{"7.4.1-alpine3.20", 7, 4, true, true},
		{"7.0-bookworm", 7, 0, true, true},
		{"8.0-M02", 8, 0, true, true},
		{"7", 7, 0, false, true},
		{"7-alpine", 7, 0, false, true},
		{"latest", 0, 0, false, false},
		{"alpine", 0, 0, false, false},
		{"", 0, 0, false, false},
		{"7.", 0, 0, false, false},
		{"7x", 0, 0, false, false},
		{"v7.4", 0, 0, false, false},
		{"123456.1", 0, 0, false, false},
	}
	for _, tt := range tests {
		major, minor, minorKnown, ok := parseVersion(tt.in)
		if major != tt.major || minor != tt.minor || minorKnown != tt.minorKnown || ok != tt.ok {
			t.Errorf("parseVersion(%q) = %d, %d, %v, %v", tt.in, major, minor, minorKnown, ok)
		}
	}
}

// TestServerOfTag maps base image tags to the RDB versions their servers load, as the table
// in the RDB format notes gives them.
func TestServerOfTag(t *testing.T) {
	tests := []struct {
		ref     string
		family  string
		version string
		rdb     int // 0: unknown
	}{
		{"redis:7.4", "redis", "7.4", 12},
		{"redis:7.4.1-alpine", "redis", "7.4", 12},
		{"redis:8.2", "redis", "8.2", 12},
		{"redis:8", "redis", "8", 12},
		{"redis:9.0", "redis", "9.0", 12},
		{"redis:7.2", "redis", "7.2", 11},
		{"redis:7.0", "redis", "7.0", 10},
		{"redis:7.0.15@sha256:0123", "redis", "7.0", 10},
		{"redis:7", "redis", "7", 12},
		{"redis:6.2", "redis", "6.2", 9},
		{"redis:6", "redis", "6", 9},
		{"redis:6.0", "redis", "6.0", 9},
		{"redis:5.0", "redis", "5.0", 9},
		{"redis:4.0", "redis", "4.0", 8},
		{"redis:3.2", "redis", "3.2", 7},
		{"redis:3.0", "redis", "3.0", 6},
		{"redis:2", "", "", 0},
		{"docker.io/library/redis:7.2-bookworm", "redis", "7.2", 11},
		{"registry.local:5000/team/redis:7.0", "redis", "7.0", 10},
		{"bitnami/redis:7.2", "redis", "7.2", 11},
		{"redis/redis-stack-server:7.2.0-v10", "redis", "7.2", 11},
		{"rdbgen-test/redis:7.0", "redis", "7.0", 10},
		{"valkey/valkey:8.0", "valkey", "8.0", 11},
		{"valkey/valkey:9.0", "valkey", "9.0", 11},
		{"valkey/valkey:7.2-alpine", "valkey", "7.2", 11},
		{"valkey/valkey:7", "valkey", "7", 11},
		{"valkey/valkey:7.0", "", "", 0},
		{"redis", "", "", 0},
		{"redis:latest", "", "", 0},
		{"redis:alpine", "", "", 0},
		{"mycorp/cache:7.4", "", "", 0},
	}
	none := dockercli.Client{Host: "unix:///nonexistent/docker.sock"} // the tag alone decides
	for _, tt := range tests {
		s, ok := ServerOf(context.Background(), none, tt.ref)
		if ok != (tt.rdb != 0) || s.Family != tt.family || s.Version != tt.version || s.MaxRDBVersion != tt.rdb {
			t.Errorf("ServerOf(%q) = %+v, %v; want %s %s loading %d", tt.ref, s, ok, tt.family, tt.version, tt.rdb)
		}
		if ok && s.Source != "tag" {
			t.Errorf("ServerOf(%q) source %q", tt.ref, s.Source)
		}
	}
}

// writeDump writes a file that starts like an RDB file of version.
func writeDump(t *testing.T, header string) string {
	t.Helper()
	return writeFile(t, header+"\xff\x00\x00\x00\x00\x00\x00\x00\x00")
}

// writeFile writes a dump.rdb that holds content.
func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.rdb")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNewPlanChecks(t *testing.T) {
	ctx := context.Background()
	offline := Options{DockerHost: "unix:///nonexistent/docker.sock"}
	v12 := writeDump(t, "REDIS0012")
	v10 := writeDump(t, "REDIS0010")
	with := func(change func(*Options)) Options {
		o := offline
		change(&o)
		return o
	}
	tests := []struct {
		name    string
		dump    string
		opts    Options
		wantErr error
		wantMsg string
	}{
		{"default base loads 12", v12, offline, nil, ""},
		{"too new", v12, with(func(o *Options) { o.Base = "redis:7.0" }), ErrTooNew,
			"is RDB version 12, and base image redis:7.0 runs Redis 7.0 (from the tag), which loads versions up to 10; write the dump with --target redis-7.0, or pick a newer base image"},
		{"too new for valkey", v12, with(func(o *Options) { o.Base = "valkey/valkey:8.0" }), ErrTooNew, "loads versions up to 11; write the dump with --target valkey-8.0"},
		{"too new even forced", v12, with(func(o *Options) { o.Base, o.Force = "redis:7.2", true }), ErrTooNew, "up to 11"},
		{"fits", v10, with(func(o *Options) { o.Base = "redis:7.0" }), nil, ""},
		{"unknown", v10, with(func(o *Options) { o.Base = "mycorp/cache:prod" }), ErrUnknownBase,
			"cannot tell which RDB versions base image mycorp/cache:prod loads"},
		{"unknown forced", v10, with(func(o *Options) { o.Base, o.Force = "mycorp/cache:prod", true }), nil, ""},
		{"not rdb", writeDump(t, "VALKEY080"), offline, decoder.ErrNotRDB, `starts with "VALKEY080", not REDIS and a 4-digit version`},
		{"short", writeDump(t, "RED"), offline, decoder.ErrNotRDB, "not REDIS"},
		{"shorter than the magic", writeFile(t, "RED"), offline, decoder.ErrNotRDB, `starts with "RED", not REDIS`},
		{"empty", writeFile(t, ""), offline, decoder.ErrNotRDB, `starts with "", not REDIS`},
		{"bad version", writeDump(t, "REDIS00x9"), offline, decoder.ErrNotRDB, "not REDIS"},
		{"missing", filepath.Join(t.TempDir(), "nope.rdb"), offline, os.ErrNotExist, "open dump"},
		{"directory", t.TempDir(), offline, nil, "is not a regular file"},
		{"bad base", v10, with(func(o *Options) { o.Base = "redis:7.0\nRUN rm -rf /" }), ErrInvalidOption, "is not an image reference"},
		{"bad owner", v10, with(func(o *Options) { o.Owner = "redis" }), ErrInvalidOption, `owner "redis" is not uid:gid`},
		{"appendonly", v10, with(func(o *Options) { o.Args = []string{"--appendonly", "YES"} }), ErrInvalidOption, "--appendonly YES would make the server ignore the dump"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPlan(ctx, tt.dump, tt.opts)
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatal(err)
				}
				if p.Dockerfile == nil || p.DumpName != "dump.rdb" {
					t.Fatalf("plan %+v", p)
				}
				return
			}
			if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("got %v, want %v containing %q", err, tt.wantErr, tt.wantMsg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
}

// TestDockerfileGolden compares the Dockerfiles of a few plans with testdata; run with
// -update to rewrite them.
func TestDockerfileGolden(t *testing.T) {
	dump := writeDump(t, "REDIS0009")
	os.WriteFile(dump+".manifest.json", []byte(`{"format": 1, "keys": 3, "bytes": 18, "checksum": "00000000000000ff"}`), 0o644)
	cases := map[string]Options{
		"default":   {},
		"persist":   {Persist: true, Base: "redis:7.2-alpine", Owner: "1000:1000"},
		"args":      {Base: "valkey/valkey:8.0", Args: []string{"--port", "7000", "--maxmemory", "1gb", "--requirepass", `a "quoted" pass`}},
		"forced":    {Base: "mycorp/cache:prod", Force: true},
		"no-labels": {},
		"fresh":     {Base: "redis:7.4-alpine", ExpiryFromStart: true, Args: []string{"--maxmemory", "1gb"}},
	}
	for name, opts := range cases {
		t.Run(name, func(t *testing.T) {
			opts.DockerHost = "unix:///nonexistent/docker.sock"
			d := dump
			if name == "no-labels" {
				d = writeDump(t, "REDIS0010") // no manifest beside it
			}
			if opts.ExpiryFromStart {
				opts.Binary = writeELF(t, elf.EM_X86_64, false)
				d = writeDumpWithCtime(t, "REDIS0009") // the entrypoint needs it
			}
			p, err := NewPlan(context.Background(), d, opts)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".Dockerfile")
			if *update {
				if err := os.WriteFile(golden, p.Dockerfile, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(p.Dockerfile) != string(want) {
				t.Fatalf("Dockerfile differs from %s (run go test -update):\n%s", golden, p.Dockerfile)
			}
		})
	}
}
