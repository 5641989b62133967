package gz

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

func TestNamed(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"dump.rdb.gz", true},
		{"dump.rdb", false},
		{"s3://b/dump.rdb.gz?region=eu-west-1", true},
		{"s3://b/dump.rdb?x=.gz", false},
		{"out.jsonl.gz", true},
		{"gz", false},
		{"s3://b/x?1.rdb.gz", true}, // a ? with no option after it is the key's
		{"s3://b/x.gz?endpoint=http://h", true},
	} {
		if got := Named(tc.path); got != tc.want {
			t.Errorf("Named(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestWriterRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf)
	want := bytes.Repeat([]byte("REDIS0011"), 1000)
	if _, err := w.Write(want); err != nil {
		t.Fatal(err)
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read back %d bytes (%v), want %d", len(got), err, len(want))
	}
}
