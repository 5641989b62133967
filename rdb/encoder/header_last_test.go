package encoder

import (
	"bytes"
	"fmt"
	"testing"
)

// writeHeaderCase writes keys string records into db (every expiring-th one with an expiry,
// none when expiring is 0), then, if next >= 0, one record into db next, and closes w.
func writeHeaderCase(w *Writer, db int, info DBInfo, keys, expiring, next int) error {
	if keys >= 0 {
		if err := w.BeginDB(db, info); err != nil {
			return err
		}
	}
	for i := range keys {
		var at int64
		if expiring > 0 && i%expiring == 0 {
			at = 1_900_000_000_000 + int64(i)
		}
		k := fmt.Appendf(nil, "key:%08d", i)
		if err := sinkString(w, k, k, at); err != nil {
			return err
		}
	}
	if next >= 0 {
		if err := w.BeginDB(next, DBInfo{Keys: 1}); err != nil {
			return err
		}
		if err := sinkString(w, []byte("other"), []byte("db"), 0); err != nil {
			return err
		}
	}
	return w.Close()
}

func TestHeaderLast(t *testing.T) {
	tests := []struct {
		name               string
		db, keys, expiring int
		next               int
		bufferSize         int
		disableChecksum    bool
	}{
		{name: "no database", keys: -1, next: -1},
		{name: "empty database", keys: 0, next: -1},
		{name: "one key", keys: 1, next: -1},
		{name: "63 keys", keys: 63, expiring: 1, next: -1},
		{name: "64 keys", keys: 64, expiring: 1, next: -1},
		{name: "16383 keys", keys: 16383, expiring: 3, next: -1},
		{name: "16384 keys", keys: 16384, expiring: 3, next: -1},
		{name: "flushed many times", keys: 50000, expiring: 7, next: -1, bufferSize: 4096},
		{name: "db 9 then db 2", db: 9, keys: 1000, next: 2, bufferSize: 4096},
		{name: "db 100000", db: 100000, keys: 10, next: -1},
		{name: "no checksum", keys: 20000, expiring: 2, next: -1, bufferSize: 4096, disableChecksum: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{CreatedAt: fixedTime, BufferSize: tt.bufferSize, DisableChecksum: tt.disableChecksum}
			// The file as written with the counts declared up front.
			var counts DBInfo
			if tt.keys > 0 {
				counts.Keys = uint64(tt.keys)
				if tt.expiring > 0 {
					counts.Expires = uint64((tt.keys + tt.expiring - 1) / tt.expiring)
				}
			}
			var want bytes.Buffer
			w, err := NewWriter(&want, opts)
			must(t, err)
			must(t, writeHeaderCase(w, tt.db, counts, tt.keys, tt.expiring, tt.next))

			opts.HeaderLast = true
			var body bytes.Buffer
			w, err = NewWriter(&body, opts)
			must(t, err)
			wantLen := w.HeaderLen(tt.db, counts)
			if tt.keys < 0 {
				wantLen = len(w.head.fixed)
			}
			if w.Header() != nil {
				t.Fatal("Header before Close is not nil")
			}
			must(t, writeHeaderCase(w, tt.db, DBInfo{}, tt.keys, tt.expiring, tt.next))
			head := w.Header()
			if len(head) != wantLen {
				t.Errorf("header of %d bytes, HeaderLen said %d", len(head), wantLen)
			}
			got := append(append([]byte(nil), head...), body.Bytes()...)
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("header ‖ body (%d bytes) differs from the file written header first (%d bytes)", len(got), want.Len())
			}
			if s := w.Stats(); s.Bytes != int64(want.Len()) {
				t.Errorf("Stats.Bytes %d, want the file's %d", s.Bytes, want.Len())
			}
		})
	}
}

func TestHeaderLen(t *testing.T) {
	w, err := NewWriter(&bytes.Buffer{}, Options{CreatedAt: fixedTime})
	must(t, err)
	fixed := len(w.head.fixed)
	tests := []struct {
		db   int
		info DBInfo
		want int // beyond the magic and AUX fields
	}{
		{0, DBInfo{}, 2},
		{0, DBInfo{Keys: 63}, 2 + 3},
		{0, DBInfo{Keys: 64}, 2 + 4},
		{0, DBInfo{Keys: 16383, Expires: 63}, 2 + 4},
		{0, DBInfo{Keys: 16384, Expires: 64}, 2 + 1 + 5 + 2},
		{63, DBInfo{Keys: 1<<32 - 1, Expires: 16384}, 2 + 1 + 5 + 5},
		{64, DBInfo{Keys: 1 << 32, Expires: 1 << 32}, 3 + 1 + 9 + 9},
	}
	for _, tt := range tests {
		if got := w.HeaderLen(tt.db, tt.info) - fixed; got != tt.want {
			t.Errorf("HeaderLen(%d, %+v): %d bytes beyond the AUX fields, want %d", tt.db, tt.info, got, tt.want)
		}
	}
}
