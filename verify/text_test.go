package verify

import (
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// TestWriteText pins the report of a file checked offline, with no manifest.
func TestWriteText(t *testing.T) {
	rep := &Report{
		File: &FileReport{Path: "dump.rdb", Bytes: 2048, RDBVersion: 9, Checksum: "3c3a0ed2a1c1e9b8", ChecksumStatus: ChecksumOK, Parsed: true,
			DBs:       map[int]DBCounts{0: {Counts: record.Counts{Keys: 3, Expires: 1}, Types: map[string]uint64{"string": 2, "hash": 1}}},
			Encodings: map[string]uint64{"string": 2, "hash-listpack": 1}},
		NotLoaded: "offline",
		Pass:      true,
	}
	var b strings.Builder
	if err := WriteText(&b, rep, ""); err != nil {
		t.Fatal(err)
	}
	want := "file      dump.rdb: 2.0 KiB, RDB 9, checksum 3c3a0ed2a1c1e9b8 ok\n" +
		"          db 0: 3 keys, 1 with TTL (1 hash, 2 string)\n" +
		"          encodings: 1 hash-listpack, 2 string\n" +
		"manifest  none: the counts are checked against the file's own\n" +
		"load      skipped: offline\n" +
		"PASS\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestWriteTextFail checks the verdict of a failed check: the count, the mismatches listed,
// and how many more there are.
func TestWriteTextFail(t *testing.T) {
	var b strings.Builder
	if err := WriteText(&b, &Report{MismatchCount: 3, Mismatches: []Mismatch{{}}}, ""); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.HasPrefix(got, "FAIL: 3 mismatches\n") || !strings.HasSuffix(got, "  ... and 2 more\n") {
		t.Errorf("got %q", got)
	}
}
