package encoder

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goldenCollections are the cases kept as golden files: one of each encoding, and their
// edges.
var goldenCollections = []string{
	"hash-integers", "hash-513-fields", "hash-value-65-bytes",
	"set-int16", "set-int32", "set-int64", "set-mixed", "set-513-integers",
	"zset-scores", "zset-ties-and-integer-members", "zset-129",
	"list-small", "list-integers", "list-many-nodes",
}

// TestCollectionsGolden keeps the bytes of every collection encoding per RDB version family,
// so that a change to any of them is seen. Run go test ./encoder -update to rewrite them.
func TestCollectionsGolden(t *testing.T) {
	cases := collectionCases()
	for _, v := range append([]int{7}, families...) {
		name := "collections-v" + strconv.Itoa(v)
		t.Run(name, func(t *testing.T) {
			checkGolden(t, name, writeFile(t, v, nil, cases, goldenCollections))
		})
	}
}

// checkGolden compares got with testdata/name.rdb, which go test ./encoder -update rewrites.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".rdb")
	if *update {
		must(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./encoder -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		at := 0
		for at < min(len(got), len(want)) && got[at] == want[at] {
			at++
		}
		t.Fatalf("%s differs from the golden file from byte %d (%d bytes, want %d)", name, at, len(got), len(want))
	}
}

// TestStreamsGolden keeps the bytes of streams per type: 15 (RDB 9), 19 (10) and 21 (11).
func TestStreamsGolden(t *testing.T) {
	for _, v := range []int{9, 10, 11} {
		name := "streams-v" + strconv.Itoa(v)
		t.Run(name, func(t *testing.T) {
			checkGolden(t, name, recordFile(t, v, func(w *Writer) error {
				must(t, notesStream(1700000000000)(w))
				must(t, sinkStream(w, []byte("long"), 1900000000000))
				for i := 1; i <= 250; i++ {
					fields := strs("f", strconv.Itoa(i*1000), "g", strings.Repeat("value", i%20))
					if i%7 == 0 {
						fields = strs("other", "x")
					}
					must(t, sinkEntry(w, StreamID{Ms: 1700000000000 + uint64(i/2), Seq: uint64(i % 2)}, fields))
				}
				must(t, sinkEndStream(w, StreamMeta{LastID: StreamID{Ms: 1800000000000, Seq: 0}, MaxDeletedID: StreamID{Ms: 5, Seq: 5}, EntriesAdded: 300},
					StreamGroup{Name: []byte("idle"), LastID: StreamID{Ms: 3, Seq: 0}, EntriesRead: -1,
						Consumers: []StreamConsumer{{Name: []byte("z"), SeenTimeMS: 1, ActiveTimeMS: -1}}}))
				must(t, sinkStream(w, []byte("empty"), 0))
				return sinkEndStream(w, StreamMeta{LastID: StreamID{Ms: 5, Seq: 5}, MaxDeletedID: StreamID{Ms: 5, Seq: 5}, EntriesAdded: 1})
			}))
		})
	}
}
