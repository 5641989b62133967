package encoder

import (
	"io"
	"maps"
	"testing"
)

// TestDBs checks the keys per database that Writer.DBs reports, during and after a write.
func TestDBs(t *testing.T) {
	type rec struct {
		db  int    // -1: no BeginDB
		key string // "": none
		exp int64
	}
	tests := []struct {
		name   string
		recs   []rec
		during map[int]DBInfo // before Close
	}{
		{"nothing", nil, map[int]DBInfo{}},
		{"an empty db", []rec{{db: 3}}, map[int]DBInfo{}},
		{"one db", []rec{{db: 0}, {-1, "a", 0}, {-1, "b", 1e12}}, map[int]DBInfo{0: {Keys: 2, Expires: 1}}},
		{"three dbs, one empty", []rec{{db: 0}, {-1, "a", 0}, {db: 5}, {db: 9}, {-1, "b", 1e12}, {-1, "c", 0}},
			map[int]DBInfo{0: {Keys: 1}, 9: {Keys: 2, Expires: 1}}},
		{"the largest db", []rec{{db: 1<<31 - 1}, {-1, "a", 0}}, map[int]DBInfo{1<<31 - 1: {Keys: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := NewWriter(io.Discard, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.recs {
				if r.key == "" {
					err = w.BeginDB(r.db, DBInfo{})
				} else {
					err = sinkString(w, []byte(r.key), []byte("v"), r.exp)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if got := w.DBs(); !maps.Equal(got, tt.during) {
				t.Fatalf("before Close: %v, want %v", got, tt.during)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if got := w.DBs(); !maps.Equal(got, tt.during) {
				t.Fatalf("after Close: %v, want %v", got, tt.during)
			}
		})
	}
}
