package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

func TestFingerprintSetGrows(t *testing.T) {
	var s fingerprintSet
	s.reset(10)
	for i := range uint64(100_000) {
		h := i * 0x9e3779b97f4a7c15
		if s.add(h) {
			t.Fatalf("hash %d of %d seen before", i, 100_000)
		}
	}
	if len(s.tables) < 5 {
		t.Fatalf("%d tables after 100000 entries from a start of 10", len(s.tables))
	}
	for i := range uint64(100_000) {
		if !s.add(i * 0x9e3779b97f4a7c15) {
			t.Fatalf("hash %d not found", i)
		}
	}
}

// TestConfirmDupsFalseCandidates hands the second step candidates whose fingerprints
// matched but which are not repeats: nothing is reported.
func TestConfirmDupsFalseCandidates(t *testing.T) {
	var w *rdbsink.Writer
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if w, err = rdbsink.NewWriter(f, encoder.Options{}); err != nil {
		t.Fatal(err)
	}
	_ = record.Records{
		{Key: []byte("a"), Value: []byte("1")},
		{Key: []byte("s"), Type: record.Set, Members: []record.Member{{Name: []byte("x")}, {Name: []byte("y")}, {Name: []byte("z")}}},
		{Key: []byte("b"), Value: []byte("1")},
	}.WriteTo(context.Background(), w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	cands := []dupCandidate{
		{db: 0, key: "b", record: 2},
		{db: 0, key: "s", record: 1, member: "y", index: 1, isMem: true},
		{db: 0, key: "s", record: 1, member: "x", index: 0, isMem: true},
	}
	var got []string
	err = confirmDups(context.Background(), f, fi.Size(), cands, func(what, g, _ string) { got = append(got, what+": "+g) })
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v; want nothing", got, err)
	}
	// A true repeat among them is found.
	cands = append(cands, dupCandidate{db: 0, key: "s", record: 1, member: "y", index: 2, isMem: true})
	cands[1].member = "z"
	err = confirmDups(context.Background(), f, fi.Size(), append(cands, dupCandidate{db: 0, key: "a", record: 2}), func(what, g, _ string) { got = append(got, what+": "+g) })
	if err != nil || len(got) != 2 {
		t.Fatalf("got %v, %v; want the key a and the member y", got, err)
	}
}
