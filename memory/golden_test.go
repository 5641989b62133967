package memory_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestResultGolden pins the JSON shape of a Result and the estimate of one key of every
// encoding, in two databases, one without RESIZEDB. Run go test ./memory -update to
// rewrite it.
func TestResultGolden(t *testing.T) {
	e, err := memory.New(memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs := []record.Record{
		{Key: []byte("int"), Value: []byte("123456")},
		{Key: []byte("shared"), Value: []byte("42")},
		{Key: []byte("embstr"), Value: []byte("hello"), ExpireAtMS: 1},
		{Key: []byte("raw"), Value: bytes.Repeat([]byte("r"), 100)},
		{Key: []byte("hash"), Type: record.Hash, Members: members(5, "f", 5)},
		{Key: []byte("hash-big"), Type: record.Hash, Members: members(600, "f", 5)},
		{Key: []byte("list"), Type: record.List, Members: members(3000, "element", 0)},
		{Key: []byte("intset"), Type: record.Set, Members: []record.Member{{Name: []byte("1")}, {Name: []byte("70000")}}},
		{Key: []byte("set"), Type: record.Set, Members: members(10, "m", 0)},
		{Key: []byte("zset"), Type: record.ZSet, Members: members(10, "m", 0)},
		{Key: []byte("zset-big"), Type: record.ZSet, Members: members(200, "m", 0)},
	}
	for db, info := range []record.Counts{{Keys: uint64(len(recs) + 1), Expires: 1}, {}} {
		if err := e.BeginDB(db, info); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if err := r.WriteTo(e); err != nil {
				t.Fatal(err)
			}
		}
		stream := record.Record{Key: []byte("stream"), Type: record.Stream, Members: []record.Member{
			{ID: record.StreamID{Ms: 1, Seq: 0}, Fields: [][]byte{[]byte("a"), []byte("1")}},
			{ID: record.StreamID{Ms: 2, Seq: 0}, Fields: [][]byte{[]byte("b"), []byte("2")}},
		}}
		if err := stream.WriteTo(e); err != nil {
			t.Fatal(err)
		}
	}
	r, err := e.Result()
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "result.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./memory -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("result differs from %s (run go test ./memory -update if intended):\n%s", path, got)
	}
}
