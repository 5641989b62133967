package encoder

import (
	"errors"
	"io"
	"maps"
	"testing"
)

// TestCountsAreHints checks that with Options.CountsAreHints declared counts are written but
// not checked, and a database opened again continues its counts; without it, both fail.
func TestCountsAreHints(t *testing.T) {
	type step struct {
		db   int // -1: a key
		info DBInfo
		exp  int64
	}
	tests := []struct {
		name    string
		steps   []step
		strict  error // the error without CountsAreHints
		hintDBs map[int]DBInfo
	}{
		{"counts off", []step{{db: 0, info: DBInfo{Keys: 3, Expires: 1}}, {db: -1}, {db: -1}},
			ErrCountMismatch, map[int]DBInfo{0: {Keys: 2}}},
		{"a db again", []step{{db: 0}, {db: -1}, {db: 1}, {db: -1}, {db: 0}, {db: -1, exp: 1e12}},
			ErrDBReopened, map[int]DBInfo{0: {Keys: 2, Expires: 1}, 1: {Keys: 1}}},
		{"exact", []step{{db: 0, info: DBInfo{Keys: 1}}, {db: -1}}, nil, map[int]DBInfo{0: {Keys: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, hints := range []bool{false, true} {
				w, err := NewWriter(io.Discard, Options{CountsAreHints: hints})
				if err != nil {
					t.Fatal(err)
				}
				keys := 0
				for _, s := range tt.steps {
					if err == nil && s.db >= 0 {
						err = w.BeginDB(s.db, s.info)
					} else if err == nil {
						keys++
						err = sinkString(w, []byte{byte('a' + keys)}, []byte("v"), s.exp)
					}
				}
				if err == nil {
					err = w.Close()
				}
				want := tt.strict
				if hints {
					want = nil
				}
				if !errors.Is(err, want) || (want == nil && err != nil) {
					t.Fatalf("CountsAreHints %v: %v, want %v", hints, err, want)
				}
				if got := w.DBs(); hints && !maps.Equal(got, tt.hintDBs) {
					t.Errorf("DBs %v, want %v", got, tt.hintDBs)
				}
			}
		})
	}
}
