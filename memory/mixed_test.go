package memory_test

import (
	"context"
	"testing"

	"github.com/rdbgen/rdbgen/internal/mixedfill"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
	"github.com/redis/go-redis/v9"
)

// estimateRecords feeds recs, grouped by database as they come, to an Estimator.
func estimateRecords(t testing.TB, recs []record.Record) memory.Result {
	t.Helper()
	e, err := memory.New(memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]*record.Counts{}
	for _, r := range recs {
		if counts[r.DB] == nil {
			counts[r.DB] = &record.Counts{}
		}
		counts[r.DB].Keys++
		if r.ExpireAtMS > 0 {
			counts[r.DB].Expires++
		}
	}
	db := -1
	for i := range recs {
		r := &recs[i]
		if r.DB != db {
			db = r.DB
			if err := e.BeginDB(db, *counts[db]); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.WriteTo(e); err != nil {
			t.Fatal(err)
		}
	}
	res, err := e.Result()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A dump a real redis-server wrote from a mixed fill, estimated from the records the fill sent
// (inspect's tests estimate the same dumps from the file).
func TestEstimateServerDump(t *testing.T) {
	for _, c := range mixedfill.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			path := redistest.WriteDumpWith(t, nil, func(ctx context.Context, cl *redis.Client) error { return mixedfill.Send(ctx, cl, c.Recs) })
			compare(t, estimateRecords(t, c.Recs), measure(t, path))
		})
	}
}
