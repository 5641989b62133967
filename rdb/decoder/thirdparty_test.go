package decoder_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// fileOf writes b into a temporary file and returns its path.
func fileOf(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.rdb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPreGAFunctions reads libraries in the layout of Redis 7.0's release candidates
// (opcode 246) as Redis 7.0's rdbFunctionLoad makes them: "#!ENGINE name=NAME\n" before
// the code, the description dropped. The bytes are those of redis-replicator's function.rdb.
func TestPreGAFunctions(t *testing.T) {
	code := "redis.register_function('f', function() return 1 end)"
	tests := []struct {
		name string
		body []byte
		want string
	}{
		{"with description", bytes.Join([][]byte{{0xf6}, rstr("lib1"), rstr("LUA"), {1}, rstr("description function"), rstr(code)}, nil),
			"#!LUA name=lib1\n" + code},
		{"without description", bytes.Join([][]byte{{0xf6}, rstr("lib2"), rstr("LUA"), {0}, rstr(code)}, nil),
			"#!LUA name=lib2\n" + code},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, rd := readAll(t, fileOf(t, rdbFile("0010", tt.body)))
			if got := rd.Functions(); len(got) != 1 || got[0] != tt.want {
				t.Fatalf("functions %q, want [%q]", got, tt.want)
			}
		})
	}
	body := bytes.Join([][]byte{{0xf6}, rstr("lib1"), rstr("LUA"), {1}}, nil)
	var rec recorder
	_, err := decoder.File{Path: fileOf(t, rdbFile("0010", body))}.Read(context.Background(), &rec)
	if !errors.Is(err, decoder.ErrTruncated) && !errors.Is(err, decoder.ErrCorrupt) {
		t.Fatalf("a library cut short: %v, want damage", err)
	}
}

// TestEnterpriseOpcodes skips Redis Enterprise's per-key opcodes 107 (RAM LRU) and 121
// (slot number), one length each before a record's type, as redis/librdb does, and counts
// them; the bytes are those of librdb's redis_ent_opcode_ram_lru.rdb.
func TestEnterpriseOpcodes(t *testing.T) {
	path := fileOf(t, rdbFile("0012", []byte{0xfb, 2, 0}, []byte{107, 0x40, 0x43, 0}, rstr("a"), rstr("b"),
		[]byte{121, 0x40, 0x5c, 0}, rstr("k"), rstr("v")))
	recs, rd := readAll(t, path)
	if len(recs) != 2 || string(recs[0].Key) != "a" || string(recs[1].Value) != "v" {
		t.Fatalf("records %v", canonAll(recs))
	}
	if n := rd.Stats().EnterpriseSkipped; n != 2 {
		t.Fatalf("EnterpriseSkipped %d, want 2", n)
	}
}

// TestStreamLengthAsStored carries a stream whose stored length is not its entries'
// count (dumps of Redis 5.0 hold such streams, and Redis loads the length as it is) through
// the writer and back: the length is written as read.
func TestStreamLengthAsStored(t *testing.T) {
	s := record.Record{Key: []byte("s"), Type: record.Stream,
		Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
		Stream:  record.StreamTail{Meta: record.StreamMeta{Length: 3, LastID: record.StreamID{Ms: 5}}}}
	for _, v := range []int{9, 10, 11} {
		recs, _ := readAll(t, writeFile(t, []record.Record{s}, encoder.Options{RDBVersion: v}))
		if len(recs) != 1 || recs[0].Stream.Meta.Length != 3 || len(recs[0].Members) != 1 {
			t.Fatalf("RDB %d: read back %+v", v, recs)
		}
	}
}

// TestEmptyKeysAsRedisSkipsThem reads Redis's own tests/assets/corrupt_empty_keys.rdb: nine
// empty collections of every encoding, a quicklist of one empty ziplist among them, which
// redis-server 7.0 loads as no keys ("empty keys skipped: 9"); the reader skips them too.
func TestEmptyKeysAsRedisSkipsThem(t *testing.T) {
	recs, rd := readAll(t, "../../testdata/thirdparty/redis/corrupt_empty_keys.rdb")
	if len(recs) != 0 || rd.Stats().Empty != 9 {
		t.Fatalf("%d records (want none), %d empty keys skipped (want 9)", len(recs), rd.Stats().Empty)
	}
}
