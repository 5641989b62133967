package verify_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/verify"
)

// writeFixture writes b as dump.rdb in a test temporary directory.
func writeFixture(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.rdb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFileOldVersionsWithoutTrailer checks files of RDB 1 to 4, which end with the EOF
// opcode (the checksum came with RDB 5): they pass offline and on Redis 7.0, which loads them.
func TestFileOldVersionsWithoutTrailer(t *testing.T) {
	later := time.Now().Add(time.Hour).UnixMilli()
	records := [][]byte{
		fx.Record(0, "s", fx.Str("hello")),
		fx.Expiring(later, fx.Record(0, "ttl", fx.Str("x"))),
		fx.Record(1, "l", fx.Len(2), fx.Str("a"), fx.Str("b")),
		fx.Record(2, "set", fx.Len(2), fx.Str("a"), fx.Str("b")),
		fx.Record(3, "z", fx.Len(1), fx.Str("m"), []byte("\x03"+"1.5")),
		fx.Record(4, "h", fx.Len(1), fx.Str("f"), fx.Str("v")),
	}
	for _, version := range []int{3, 4} {
		path := writeFixture(t, fx.File(version, records...))
		rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
		wantPass(t, rep, err)
		if f := rep.File; f.RDBVersion != version || f.ChecksumStatus != verify.ChecksumAbsent || f.Keys != 6 || f.Expires != 1 {
			t.Fatalf("RDB %d: file report %+v", version, f)
		}
		rep, err = verify.File(testContext(t), path, verify.Options{Server: processOptions(t)})
		wantPass(t, rep, err)
		if rep.Server.Keys != 6 || rep.Server.Expires != 1 {
			t.Fatalf("RDB %d: server %+v", version, rep.Server)
		}
	}
	// Without its EOF opcode, such a file is truncated.
	b := fx.File(4, records...)
	path := writeFixture(t, b[:len(b)-1])
	rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
	wantFail(t, rep, err, verify.StageFile, "does not end with the EOF marker 0xff (RDB 4 has no checksum")
}

// TestFileModuleValues checks a file holding module values and module AUX data: offline, they
// are counted per module (and as keys of type "module"), and the file passes; no server is
// started on it, since one without the modules refuses it, and the report says so.
func TestFileModuleValues(t *testing.T) {
	path := writeFixture(t, fx.ModuleFile())
	for _, offline := range []bool{true, false} {
		rep, err := verify.File(testContext(t), path, verify.Options{Offline: offline, Server: processOptions(t)})
		wantPass(t, rep, err)
		f := rep.File
		if f.Modules["MBbloom--"] != 2 || f.ModuleAux["ft-index0"] != 1 || f.DBs[0].Types["module"] != 3 || f.Keys != 4 || f.Expires != 1 {
			t.Fatalf("file report %+v", f)
		}
		if offline != (rep.NotLoaded == "") || rep.Load != nil || rep.Server != nil {
			t.Fatalf("offline %v: not loaded %q, load %+v", offline, rep.NotLoaded, rep.Load)
		}
	}
}

// TestFileSanitizeRules checks that files Redis's deep sanitization refuses fail the offline
// stage, naming the offset, the key and the damage, and are never loaded.
func TestFileSanitizeRules(t *testing.T) {
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"hash listpack count", fx.File(10, fx.Record(16, "h", fx.Str(string(fx.Listpack(6, "f1", "v1", "f2", "v2"))))),
			`key "h": decoder: corrupt listpack: its header says 6 entries, it holds 4`},
		{"NaN score", fx.File(7, fx.Record(3, "z", fx.Len(1), fx.Str("m"), []byte{253})), `key "z": decoder: corrupt: bad score: NaN`},
		{"consumer id not pending", fx.File(10, fx.Stream{Entries: 1, Pending: []uint64{0}, Owned: []uint64{1}}.Record("s")),
			`key "s": decoder: corrupt stream: group "g": consumer "c" owns 1000-1, which is not in the group's pending entries`},
	}
	for _, tt := range tests {
		path := writeFixture(t, tt.file)
		for _, offline := range []bool{true, false} {
			rep, err := verify.File(testContext(t), path, verify.Options{Offline: offline, Server: processOptions(t)})
			wantFail(t, rep, err, verify.StageFile, tt.want)
			if rep.Load != nil || !strings.Contains(rep.Reason, "structure: rdb byte ") {
				t.Fatalf("%s: report %+v", tt.name, rep)
			}
		}
	}
}
