package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/rdb"
)

func TestInspect(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "dump.rdb")
	if _, _, err := run(t, context.Background(), "--count", "1000", "--type", "hash", "--ttl", "1h", "--db", "2", "-o", dump, "-q"); err != nil {
		t.Fatal(err)
	}
	t.Run("text", func(t *testing.T) {
		stdout, stderr, err := run(t, context.Background(), "inspect", dump, "--top", "2")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"RDB 9,", "1000 keys (1000 with TTL)", `aux redis-ver = "5.0.0"`, "used_memory on redis-5.0 once loaded", "hash-ziplist", "hash listpack", "largest by size", `db 2 "key100000001" hash`} {
			if !strings.Contains(stdout, want) {
				t.Errorf("no %q in\n%s", want, stdout)
			}
		}
		if stderr != "" {
			t.Errorf("stderr %q (not a terminal: no progress)", stderr)
		}
	})
	t.Run("json", func(t *testing.T) {
		stdout, _, err := run(t, context.Background(), "inspect", dump, "--json", "--target", "redis-7.2", "--top", "0")
		if err != nil {
			t.Fatal(err)
		}
		var rep inspect.Report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Keys != 1000 || rep.Memory.Target != "redis-7.2" || len(rep.DBs) != 1 || rep.DBs[0].DB != 2 || len(rep.Largest.BySize) != 0 || rep.Expiry.Keys != 1000 {
			t.Errorf("report %+v", rep)
		}
	})
	t.Run("gzip and stdin", func(t *testing.T) {
		raw, err := os.ReadFile(dump)
		if err != nil {
			t.Fatal(err)
		}
		zipped := gz(t, string(raw))
		gzPath := filepath.Join(dir, "dump.rdb.gz")
		if err := os.WriteFile(gzPath, zipped, 0o644); err != nil {
			t.Fatal(err)
		}
		for name, args := range map[string][]string{"gzip file": {"inspect", gzPath, "--json"}, "stdin": {"inspect", "-", "--json"}} {
			stdout, _, err := runStdin(t, zipped, args...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var rep inspect.Report
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Keys != 1000 {
				t.Errorf("%s: %d keys (%v)", name, rep.Keys, err)
			}
		}
		_, _, err = runStdin(t, raw[:len(raw)/2], "inspect", "-")
		if err == nil || !strings.HasPrefix(err.Error(), "read stdin: rdb byte ") {
			t.Errorf("cut stdin: %v", err)
		}
	})
	t.Run("thresholds", func(t *testing.T) {
		stdout, _, err := run(t, context.Background(), "inspect", dump, "--json", "--target", "redis-7.0", "--hash-max-listpack-entries", "5")
		if err != nil {
			t.Fatal(err)
		}
		var rep inspect.Report
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if e := rep.Memory.Encodings; len(e) != 1 || e[0].Encoding != "hashtable" {
			t.Errorf("encodings %+v, want hashtable beyond 5 fields", e)
		}
	})
}

// Bad input: one line naming what is wrong (the offset, for the file's damage), an error.
func TestInspectBadInput(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "dump.rdb")
	if _, _, err := run(t, context.Background(), "--count", "100", "-o", dump, "-q"); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	damaged := append([]byte(nil), good...)
	damaged[len(damaged)-1] ^= 1
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"inspect"}, "no file to inspect"},
		{"two files", []string{"inspect", dump, dump}, `unexpected argument`},
		{"missing", []string{"inspect", filepath.Join(dir, "nope.rdb")}, "no such file"},
		{"not rdb", []string{"inspect", write("text.rdb", []byte("hello, world\n"))}, "rdb byte 0: decoder: not an RDB file"},
		{"truncated", []string{"inspect", write("cut.rdb", good[:len(good)/2])}, "file ends inside a record"},
		{"checksum", []string{"inspect", write("crc.rdb", damaged)}, "checksum mismatch"},
		{"target", []string{"inspect", dump, "--target", "redis-1.0"}, `unknown target "redis-1.0"`},
		{"top", []string{"inspect", dump, "--top", "-1"}, "--top -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, _, err := run(t, context.Background(), c.args...)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line with %q", err, c.want)
			}
			if strings.Contains(c.want, "rdb") || c.name == "truncated" || c.name == "checksum" {
				if !strings.Contains(err.Error(), "rdb byte ") {
					t.Errorf("%v: no offset", err)
				}
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
}

// TestInspectQuotesAux: AUX fields are printed quoted, as keys are, so that a value holding a
// newline or a terminal escape cannot forge lines or drive the terminal (issue 22, item 23).
func TestInspectQuotesAux(t *testing.T) {
	b := []byte("REDIS0009")
	for _, kv := range [][2]string{{"redis-ver", "7.0.15"}, {"evil", "x\n  aux ctime = 1\x1b[2J"}, {"bad\tname", "v"}} {
		b = append(b, 0xfa, byte(len(kv[0])))
		b = append(b, kv[0]...)
		b = append(b, byte(len(kv[1])))
		b = append(b, kv[1]...)
	}
	b = append(b, "\xfe\x00\x00\x01k\x01v\xff"...)
	b = binary.LittleEndian.AppendUint64(b, rdb.Checksum(b))
	path := filepath.Join(t.TempDir(), "aux.rdb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := run(t, context.Background(), "inspect", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  aux redis-ver = \"7.0.15\"\n", `  aux evil = "x\n  aux ctime = 1\x1b[2J"` + "\n", `  aux "bad\tname" = "v"` + "\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "\x1b") || strings.Count(stdout, "\n  aux ") != 3 {
		t.Errorf("raw AUX bytes in\n%s", stdout)
	}
}
