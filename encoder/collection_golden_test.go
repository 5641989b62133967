package encoder

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
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
			got := writeFile(t, v, nil, cases, goldenCollections)
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
		})
	}
}
