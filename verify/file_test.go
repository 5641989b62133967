package verify_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/version"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/verify"
)

func TestFileOfflineReadsWholeFile(t *testing.T) {
	d := withTTL(1500)
	d.DB, d.Value, d.ValueSize = 3, dataset.ValueRandom, 40
	path, m := generate(t, d, encoder.Options{Target: "redis-7.0"})
	for _, withManifest := range []bool{true, false} {
		opts := verify.Options{Offline: true}
		if withManifest {
			opts.Manifest = m
		}
		rep, err := verify.File(testContext(t), path, opts)
		wantPass(t, rep, err)
		f := rep.File
		if rep.Load != nil || rep.Server != nil {
			t.Fatal("an offline check started a server")
		}
		if f.RDBVersion != 10 || f.ChecksumStatus != verify.ChecksumOK || f.Checksum != m.Checksum || f.Bytes != m.Bytes || !f.Parsed {
			t.Fatalf("file report %+v", f)
		}
		if c := f.DBs[3]; len(f.DBs) != 1 || c.Keys != 1500 || c.Expires != 1500 || c.Types["string"] != 1500 || f.Keys != 1500 || f.Expires != 1500 {
			t.Fatalf("counts %+v", f.DBs)
		}
		if f.Aux["redis-ver"] != "7.0.0" || f.Aux["rdbgen-ver"] != version.Release() {
			t.Fatalf("aux %v", f.Aux)
		}
		center := d.BaseTimeMS + time.Hour.Milliseconds()
		if f.MinExpireAtMS < center-60_000 || f.MaxExpireAtMS > center+60_000 || f.MinExpireAtMS >= f.MaxExpireAtMS {
			t.Fatalf("expiries %d to %d, want within %d ± 60000", f.MinExpireAtMS, f.MaxExpireAtMS, center)
		}
	}
}

// TestFileOfflineRedisWrittenFile checks a file that Redis itself wrote, which has no
// manifest: its checksum, structure and RESIZEDB counts pass.
func TestFileOfflineRedisWrittenFile(t *testing.T) {
	path := redistest.WriteDump(t, map[string]string{"a": "1", "b": "hello", "c": strings.Repeat("x", 300)})
	rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
	wantPass(t, rep, err)
	if rep.File.Keys != 3 || rep.File.RDBVersion != 10 || rep.File.Aux["redis-ver"] == "" {
		t.Fatalf("file report %+v", rep.File)
	}
}

func TestFileOfflineNoChecksum(t *testing.T) {
	path, m := generate(t, classic(100), encoder.Options{DisableChecksum: true})
	rep, err := verify.File(testContext(t), path, verify.Options{Offline: true, Manifest: m})
	wantPass(t, rep, err)
	if rep.File.ChecksumStatus != verify.ChecksumNone {
		t.Fatalf("checksum status %q", rep.File.ChecksumStatus)
	}
	// A manifest that says a checksum was written fails a file without one.
	m.Checksum = "0123456789abcdef"
	rep, err = verify.File(testContext(t), path, verify.Options{Offline: true, Manifest: m})
	wantFail(t, rep, err, verify.StageFile, "checksum: got none (a zero trailer), want 0123456789abcdef (manifest)")
}

// TestFileOfflineTrailingBytes passes files with bytes after their EOF marker and
// checksum, which Redis ignores (it stops at the first EOF marker), and counts them: a second
// trailer, garbage, with and without a checksum; the checksum reported is the file's own.
func TestFileOfflineTrailingBytes(t *testing.T) {
	for _, tt := range []struct {
		name  string
		noCRC bool
		extra func(b []byte) []byte
	}{
		{"second trailer", false, func(b []byte) []byte { return b[len(b)-9:] }},
		{"garbage", false, func([]byte) []byte { return []byte("garbage\n") }},
		{"second trailer, no checksum", true, func(b []byte) []byte { return b[len(b)-9:] }},
		{"garbage, no checksum", true, func([]byte) []byte { return []byte{0xfe, 0x00, 0x01} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path, _ := generate(t, classic(100), encoder.Options{DisableChecksum: tt.noCRC})
			clean, err := verify.File(testContext(t), path, verify.Options{Offline: true})
			wantPass(t, clean, err)
			var n int
			redistest.ChangeFile(t, path, func(b []byte) []byte { e := tt.extra(b); n = len(e); return append(b, e...) })
			rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
			wantPass(t, rep, err)
			f := rep.File
			if f.TrailingBytes != int64(n) || f.Keys != 100 || f.Checksum != clean.File.Checksum || f.ChecksumStatus != clean.File.ChecksumStatus {
				t.Fatalf("trailing %d (want %d), keys %d, checksum %s %s (want %s %s)", f.TrailingBytes, n, f.Keys,
					f.Checksum, f.ChecksumStatus, clean.File.Checksum, clean.File.ChecksumStatus)
			}
		})
	}
}

// TestFileOfflineBadFiles checks that each damaged file, or disagreeing manifest, fails with
// the right first reason, and that the file is left as it was.
func TestFileOfflineBadFiles(t *testing.T) {
	tests := []struct {
		name     string
		noTTL    bool
		noCRC    bool
		change   func([]byte) []byte
		manifest func(*manifest.Manifest)
		noMan    bool
		want     string
	}{
		{name: "flipped byte", change: func(b []byte) []byte { b[len(b)/2] ^= 0x20; return b },
			want: "checksum: got "},
		{name: "flipped trailer byte", change: func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
			want: "(its trailer)"},
		{name: "truncated", change: func(b []byte) []byte { return b[:len(b)*2/3] },
			want: "truncated: got "},
		{name: "truncated, no manifest", noMan: true, change: func(b []byte) []byte { return b[:len(b)*2/3] },
			want: "truncated or damaged: the file does not end with the EOF marker"},
		{name: "truncated before the trailer", noMan: true, change: func(b []byte) []byte { return b[:len(b)-3] },
			want: "truncated or damaged"},
		{name: "tiny", change: func(b []byte) []byte { return b[:12] }, noMan: true,
			want: "truncated: got 12 bytes, want at least 18 bytes"},
		{name: "empty", change: func(b []byte) []byte { return nil }, noMan: true, want: "truncated: got 0 bytes"},
		{name: "not an RDB file", noMan: true, change: func(b []byte) []byte { return append([]byte("HELLO"), b[5:]...) },
			want: `header: decoder: not an RDB file: it begins with "HELLO"`},
		{name: "unknown version", noMan: true, change: func(b []byte) []byte { copy(b[5:9], "0099"); return b },
			want: "header: rdb byte 5: decoder: unsupported RDB version 99"}, // redis/librdb's future_v19.rdb: Redis names the version too
		{name: "RESIZEDB disagrees in a generated file", noCRC: true, noTTL: true, change: func(b []byte) []byte {
			i := bytes.Index(b, []byte{0xfb, 0x43, 0xe8, 0x00}) // RESIZEDB 1000 keys, 0 with TTL
			b[i+2]--
			return b
		}, want: "keys in db 0: got 1000 (0 with TTL), want 999 (0 with TTL), as its RESIZEDB says"},
		{name: "wrong count", manifest: func(m *manifest.Manifest) { m.DBs[0] = record.Counts{Keys: 999, Expires: 999} },
			want: "keys in db 0: got 1000, want 999 (manifest)"},
		{name: "wrong total", manifest: func(m *manifest.Manifest) { m.Keys = 1001 },
			want: "keys: got 1000 (1000 with TTL), want 1001"},
		{name: "wrong db", manifest: func(m *manifest.Manifest) { m.DBs = map[int]record.Counts{1: m.DBs[0]} },
			want: "keys in db 0: got 1000, want 0 (manifest)"},
		{name: "wrong expiries", manifest: func(m *manifest.Manifest) { m.DBs[0] = record.Counts{Keys: 1000} },
			want: "keys with TTL in db 0: got 1000, want 0 (manifest)"},
		{name: "wrong version", manifest: func(m *manifest.Manifest) { m.RDBVersion = 11 },
			want: "rdb version: got 9, want 11 (manifest)"},
		{name: "wrong checksum", manifest: func(m *manifest.Manifest) { m.Checksum = "0000000000000001" },
			want: "want 0000000000000001 (manifest)"},
		{name: "wrong size", manifest: func(m *manifest.Manifest) { m.Bytes-- },
			want: "file size: got "},
		{name: "expiries outside the window", manifest: func(m *manifest.Manifest) { m.Dataset.BaseTimeMS -= 3_600_000 },
			want: "expiries: got "},
		{name: "no expiries wanted", noTTL: true, manifest: func(m *manifest.Manifest) { m.DBs[0] = record.Counts{Keys: 1000, Expires: 1000} },
			want: "keys with TTL in db 0: got 0, want 1000 (manifest)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := withTTL(1000)
			if tt.noTTL {
				d = classic(1000)
			}
			path, m := generate(t, d, encoder.Options{DisableChecksum: tt.noCRC})
			if tt.change != nil {
				redistest.ChangeFile(t, path, tt.change)
			}
			if tt.manifest != nil {
				tt.manifest(m)
			}
			opts := verify.Options{Offline: true, Manifest: m}
			if tt.noMan {
				opts.Manifest = nil
			}
			sum := redistest.FileSum(t, path)
			rep, err := verify.File(testContext(t), path, opts)
			wantFail(t, rep, err, verify.StageFile, tt.want)
			if strings.Contains(rep.Reason, "\n") {
				t.Fatalf("reason is not one line: %q", rep.Reason)
			}
			if redistest.FileSum(t, path) != sum {
				t.Fatal("verify changed the file")
			}
		})
	}
}

// TestFileOfflineDamagedLength damages a length inside a file that has no checksum: the
// parser, which the checksum cannot guard then, must fail with a reason, not panic.
func TestFileOfflineDamagedLength(t *testing.T) {
	path, _ := generate(t, classic(100), encoder.Options{DisableChecksum: true})
	redistest.ChangeFile(t, path, func(b []byte) []byte {
		i := bytes.Index(b, []byte("\x0ckey100000050\x0ckey100000050"))
		b[i+13] = 0x3f // the value's length: 63 bytes, running into the next records
		return b
	})
	rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
	wantFail(t, rep, err, verify.StageFile, "structure: ")
}

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.rdb"), "no such file or directory"},
		{dir, "is a directory, not an RDB file"},
		{fifo, "is not a regular file"},
	} {
		rep, err := verify.File(testContext(t), tt.path, verify.Options{})
		if err == nil || rep != nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, %v; want an error containing %q", tt.path, rep, err, tt.want)
		}
	}
}

func TestFileCancelled(t *testing.T) {
	path, m := generate(t, classic(1000), encoder.Options{})
	ctx, cancel := context.WithCancel(testContext(t))
	cancel()
	rep, err := verify.File(ctx, path, verify.Options{Manifest: m})
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("got %v, %v; want context.Canceled", rep, err)
	}
}

func TestFileProgress(t *testing.T) {
	path, m := generate(t, classic(50_000), encoder.Options{})
	var last record.Progress
	calls := 0
	rep, err := verify.File(testContext(t), path, verify.Options{Offline: true, Manifest: m, Progress: func(p record.Progress) {
		if p.Stage != string(verify.StageFile) || p.Bytes < last.Bytes || p.TotalBytes != m.Bytes {
			t.Errorf("progress %+v after %+v", p, last)
		}
		last = p
		calls++
	}})
	wantPass(t, rep, err)
	if calls < 2 || last.Bytes != last.TotalBytes {
		t.Fatalf("%d progress calls, last %+v", calls, last)
	}
}

// TestFileResizeHints checks that a file without rdbgen's manifest of a generated dataset
// (a dump, a converted dump) passes whatever its RESIZEDB says: Redis uses the counts to
// size its tables and loads the file either way; verify's own counts are the file's records.
func TestFileResizeHints(t *testing.T) {
	path, m := generate(t, classic(1000), encoder.Options{DisableChecksum: true})
	redistest.ChangeFile(t, path, func(b []byte) []byte {
		i := bytes.Index(b, []byte{0xfb, 0x43, 0xe8, 0x00}) // RESIZEDB 1000 keys, 0 with TTL
		b[i+2] -= 7
		return b
	})
	imported := *m
	imported.Dataset, imported.Import = nil, &manifest.Import{Inputs: []string{"dump.rdb"}, Format: "rdb", Records: 1000}
	for name, man := range map[string]*manifest.Manifest{"no manifest": nil, "an import's manifest": &imported} {
		rep, err := verify.File(testContext(t), path, verify.Options{Offline: true, Manifest: man})
		if err != nil || !rep.Pass || rep.File.Keys != 1000 {
			t.Fatalf("%s: %v, %+v", name, err, rep)
		}
	}
}
