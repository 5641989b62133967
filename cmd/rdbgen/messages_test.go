package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMessagesSayWhatIsTrue: the messages of issue 22, item 24, each one line that says
// what is so.
func TestMessagesSayWhatIsTrue(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()

	// --format resp without --target: the commands are for the default target, named.
	out := filepath.Join(dir, "d.resp")
	stdout, _, err := run(t, ctx, "--count", "2", "-o", out, "--format", "resp")
	if err != nil || !strings.Contains(stdout, "(RESP for redis-5.0)") {
		t.Errorf("--format resp: %v, %q", err, stdout)
	}
	stdout, _, err = run(t, ctx, "--count", "2", "-o", out, "-f", "--format", "resp", "--json")
	var sum struct{ Target string }
	if err != nil || json.Unmarshal([]byte(stdout), &sum) != nil || sum.Target != "redis-5.0" {
		t.Errorf("--format resp --json: %v, %s", err, stdout)
	}

	// --rdb-version 7 is the reason a stream cannot be written, not the target.
	streams := generateWith(t, "--count", "2", "--type", "stream", "--target", "redis-7.0")
	_, _, err = run(t, ctx, "convert", streams, "-o", filepath.Join(dir, "s.rdb"), "--rdb-version", "7")
	want := `key "key100000001" (db 0): a stream needs RDB 9, and the file is written as RDB 7, below redis-5.0's own 9; choose --rdb-version 9 or more, or leave --rdb-version out, or leave such keys out with --skip-unsupported`
	if err == nil || err.Error() != want {
		t.Errorf("--rdb-version 7:\ngot  %v\nwant %s", err, want)
	}
	_, _, err = run(t, ctx, "convert", streams, "-o", filepath.Join(dir, "s.rdb"), "--target", "redis-5.0", "--rdb-version", "7")
	if err == nil || !strings.Contains(err.Error(), "and the file is written as RDB 7, below redis-5.0's own 9; choose --rdb-version 9 or more") {
		t.Errorf("--target redis-5.0 --rdb-version 7: %v", err)
	}

	// A 6-byte text file is not an RDB file, for every command; a Valkey 9 file is named.
	text := filepath.Join(dir, "six.txt")
	os.WriteFile(text, []byte("hello\n"), 0o644)
	valkey := filepath.Join(dir, "valkey.rdb")
	os.WriteFile(valkey, []byte("VALKEY081\xfe\x00\xff\x00\x00\x00\x00\x00\x00\x00\x00"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", text, "-o", filepath.Join(dir, "x.rdb")}, `not an RDB file: it begins with "hello", not REDIS`},
		{[]string{"inspect", text}, `not an RDB file: it begins with "hello", not REDIS`},
		{[]string{"verify", text, "--backend", "offline"}, `header: decoder: not an RDB file: it begins with "hello", not REDIS`},
		{[]string{"convert", valkey, "-o", filepath.Join(dir, "x.rdb")}, `VALKEY081 (this reader knows VALKEY080, Valkey 9.0)`},
		{[]string{"inspect", valkey}, `VALKEY081 (this reader knows VALKEY080, Valkey 9.0)`},
		{[]string{"verify", valkey, "--backend", "offline"}, `VALKEY081 (this reader knows VALKEY080, Valkey 9.0)`},
	} {
		_, _, err := run(t, ctx, tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "truncated") {
			t.Errorf("%v: got %v, want one line containing %q", tt.args[:2], err, tt.want)
		}
	}

	// verify reads a gzipped dump as the other commands do, and a real server loads it.
	dump := generateWith(t, "--count", "50", "--target", "redis-7.0")
	b, _ := os.ReadFile(dump)
	gzPath := filepath.Join(dir, "dump.rdb.gz")
	os.WriteFile(gzPath, gz(t, string(b)), 0o644)
	stdout, stderr, err := run(t, ctx, "verify", gzPath, "--backend", "process", "--json")
	var rep struct {
		Pass bool
		File struct {
			Path string
			Keys uint64
		}
	}
	if err != nil || json.Unmarshal([]byte(stdout), &rep) != nil || !rep.Pass || rep.File.Path != gzPath || rep.File.Keys != 50 {
		t.Errorf("verify a gzipped dump: %v, %s%s", err, stdout, stderr)
	}
	// A truncated one is said to be so, as the other commands say, not "not an RDB file".
	cut := filepath.Join(dir, "cut.rdb.gz")
	full := gz(t, string(b))
	os.WriteFile(cut, full[:len(full)/2], 0o644)
	_, _, err = run(t, ctx, "verify", cut, "--backend", "offline")
	if err == nil || !strings.Contains(err.Error(), "gzip: the compressed input ends early") || strings.Contains(err.Error(), "not an RDB file") {
		t.Errorf("verify a truncated gzipped dump: %v", err)
	}
}
