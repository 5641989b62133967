package rdb_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
)

// TestChecksumOfServerDumps checks Checksum, and Digest fed in pieces of every size from 1
// byte, against the trailers of the dumps a real redis-server wrote.
func TestChecksumOfServerDumps(t *testing.T) {
	paths, err := filepath.Glob("../cmd/rdbgen/testdata/dumps/*.rdb")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no server dumps found (%v)", err)
	}
	for _, path := range paths {
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		body, want := file[:len(file)-8], binary.LittleEndian.Uint64(file[len(file)-8:])
		if got := rdb.Checksum(body); got != want {
			t.Errorf("%s: Checksum %#x, the server wrote %#x", path, got, want)
		}
		for _, piece := range []int{1, 7, 64, 4096} {
			var d rdb.Digest
			for b := body; len(b) > 0; b = b[min(piece, len(b)):] {
				d.Write(b[:min(piece, len(b))])
			}
			if got := d.Sum64(); got != want {
				t.Errorf("%s: Digest in pieces of %d: %#x, the server wrote %#x", path, piece, got, want)
			}
		}
	}
}

// The checksum of nothing is 0, and of "123456789" the CRC-64 Jones check value.
func ExampleChecksum() {
	fmt.Printf("%#x %#x\n", rdb.Checksum(nil), rdb.Checksum([]byte("123456789")))
	// Output: 0x0 0xe9c6d914c4b8d9ca
}
