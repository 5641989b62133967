package record

import (
	"strconv"
	"testing"
)

// TestKeySet adds keys past several growths, in two dbs, and reads them back.
func TestKeySet(t *testing.T) {
	s := NewKeySet()
	const n = 5000
	for i := range n {
		k := []byte("k" + strconv.Itoa(i))
		if _, dup := s.Add(0, k, int64(i)); dup {
			t.Fatalf("%s: a repeat on its first Add", k)
		}
		if first, dup := s.Add(0, k, -1); !dup || first != int64(i) {
			t.Fatalf("%s again: %d %v, want %d true", k, first, dup, i)
		}
		if _, ok := s.Get(1, k); ok {
			t.Fatalf("%s is in db 1 too", k)
		}
	}
	s.Put(1, []byte("k7"), 70)
	s.Put(0, []byte("k7"), 700)
	for _, tt := range []struct {
		db   int
		key  string
		n    int64
		want bool
	}{{0, "k0", 0, true}, {0, "k4999", 4999, true}, {0, "k7", 700, true}, {1, "k7", 70, true}, {0, "k5000", 0, false}, {0, "", 0, false}} {
		if got, ok := s.Get(tt.db, []byte(tt.key)); ok != tt.want || (ok && got != tt.n) {
			t.Errorf("Get(%d, %q) = %d %v, want %d %v", tt.db, tt.key, got, ok, tt.n, tt.want)
		}
	}
	if s.Len() != n+1 {
		t.Errorf("Len %d, want %d", s.Len(), n+1)
	}
}
