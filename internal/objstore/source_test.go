package objstore

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"gocloud.dev/blob"
)

// TestSource reads an object through Source as the decoder does: sequentially, at offsets
// (ReadAt), and again from its start after a Seek; a missing object is an error naming it.
func TestSource(t *testing.T) {
	blob.DefaultURLMux().RegisterBucket("srctest", dirOpener{t.TempDir()})
	Register("srctest")
	ctx := context.Background()
	o, err := Parse("srctest://b/src.rdb", false)
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 100000)
	if err := o.Put(ctx, want); err != nil {
		t.Fatal(err)
	}
	s, err := o.OpenSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Size() != int64(len(want)) {
		t.Fatalf("Size %d, want %d", s.Size(), len(want))
	}
	head := make([]byte, 1000)
	if _, err := io.ReadFull(s, head); err != nil || !bytes.Equal(head, want[:1000]) {
		t.Fatalf("first 1000 bytes: %v", err)
	}
	if pos, _ := s.Seek(0, io.SeekCurrent); pos != 1000 {
		t.Fatalf("position %d after 1000 bytes", pos)
	}
	for _, tc := range []struct {
		off     int64
		n       int
		wantN   int
		wantEOF bool
	}{
		{off: 5, n: 11, wantN: 11},
		{off: int64(len(want)) - 4, n: 10, wantN: 4, wantEOF: true},
		{off: int64(len(want)), n: 1, wantN: 0, wantEOF: true},
	} {
		p := make([]byte, tc.n)
		n, err := s.ReadAt(p, tc.off)
		if n != tc.wantN || (err == io.EOF) != tc.wantEOF || (err != nil && err != io.EOF) {
			t.Fatalf("ReadAt(%d bytes, %d) = %d, %v", tc.n, tc.off, n, err)
		}
		if !bytes.Equal(p[:n], want[tc.off:tc.off+int64(n)]) {
			t.Fatalf("ReadAt(%d bytes, %d): wrong bytes", tc.n, tc.off)
		}
	}
	rest, err := io.ReadAll(s)
	if err != nil || !bytes.Equal(rest, want[1000:]) {
		t.Fatalf("the rest: %d bytes, %v", len(rest), err)
	}
	if _, err := s.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	again, err := io.ReadAll(s)
	if err != nil || !bytes.Equal(again, want) {
		t.Fatalf("again from the start: %d bytes, %v", len(again), err)
	}
	missing, _ := Parse("srctest://b/missing.rdb", false)
	if _, err := missing.OpenSource(ctx); err == nil || !strings.Contains(err.Error(), "srctest://b/missing.rdb") || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("a missing object: %v", err)
	}
}
