package loader

import (
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

func TestResultManifest(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.FixedZone("x", 3600))
	tests := []struct {
		dbs           map[int]record.Counts
		keys, expires uint64
	}{
		{nil, 0, 0},
		{map[int]record.Counts{0: {Keys: 3, Expires: 1}, 5: {Keys: 2, Expires: 2}}, 5, 3},
	}
	for _, tt := range tests {
		res := &Result{DBs: tt.dbs}
		m := res.Manifest(now)
		if m.Keys != tt.keys || m.Expires != tt.expires || m.DBs == nil || len(m.DBs) != len(tt.dbs) {
			t.Errorf("%v: keys %d expires %d dbs %v", tt.dbs, m.Keys, m.Expires, m.DBs)
		}
		if !m.CreatedAt.Equal(now) || m.CreatedAt.Location() != time.UTC {
			t.Errorf("created %v, want %v in UTC", m.CreatedAt, now)
		}
		if len(tt.dbs) > 0 {
			m.DBs[0] = record.Counts{}
			if res.DBs[0].Keys == 0 {
				t.Error("the manifest shares the result's map")
			}
		}
	}
}
