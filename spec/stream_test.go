package spec

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

const streams = `seed: 3
families:
  - name: events
    key: "events:{id}"
    count: 40
    type: stream
    ttl: 1h
    entries: 1-150
    fields:
      kind: {choice: [view, click, buy]}
      user: {int: {min: 1, max: 1000}}
      n: {sequence: {}}
      note: {fake: sentence}
    groups:
      - {name: workers, consumers: 3, delivered: 0.9, pending: 0.2}
      - {name: audit}
      - {name: late, delivered: 0}
`

// TestStreamFamily generates a stream family: the records streamed are those Family.Record
// recomputes, each with 1 to 150 entries, ids rising by a millisecond from the base time, and
// the fields in the order of the spec.
func TestStreamFamily(t *testing.T) {
	s := mustParse(t, streams, Params{Seed: 3, BaseTimeMS: base})
	var r recorder
	must(t, s.WriteTo(context.Background(), &r))
	if len(r.Records) != 40 {
		t.Fatalf("%d records", len(r.Records))
	}
	f := s.Families[0]
	sizes := map[int]bool{}
	for i, got := range r.Records {
		want, err := f.Record(uint64(i))
		must(t, err)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("record %d: streamed %+v, recomputed %+v", i, got, want)
		}
		n := len(got.Members)
		sizes[n] = true
		if got.Type != record.Stream || n < 1 || n > 150 || got.ExpireAtMS == 0 {
			t.Fatalf("record %d: %s of %d entries, expiry %d", i, got.Type, n, got.ExpireAtMS)
		}
		for j, e := range got.Members {
			if e.ID != (record.StreamID{Ms: base + uint64(j) + 1}) || len(e.Fields) != 8 ||
				string(e.Fields[0]) != "kind" || string(e.Fields[2]) != "user" || string(e.Fields[4]) != "n" ||
				string(e.Fields[5]) != strconv.Itoa(j+1) || string(e.Fields[6]) != "note" || len(e.Fields[7]) == 0 {
				t.Fatalf("record %d entry %d: %v %q", i, j, e.ID, e.Fields)
			}
		}
	}
	g := r.Records[7].Stream.Groups
	n := len(r.Records[7].Members)
	if len(g) != 3 || string(g[0].Name) != "workers" || len(g[0].Consumers) != 3 || string(g[0].Consumers[2].Name) != "workers-3" ||
		g[0].EntriesRead != int64(n*9/10) || len(g[0].Pending) != n*9/10/5 ||
		g[1].LastID != r.Records[7].Members[n-1].ID || len(g[1].Pending) != 0 || g[2].LastID != (record.StreamID{}) {
		t.Fatalf("groups of a stream of %d entries: %+v", n, g)
	}
	if len(sizes) < 10 {
		t.Fatalf("entry counts barely vary: %v", sizes)
	}
	est, err := s.Estimate(context.Background(), encoder.Options{Target: "redis-7.2"})
	must(t, err)
	if est.Bytes < 40*10*20 {
		t.Fatalf("estimate %d bytes", est.Bytes)
	}
}

// TestStreamFamilyInRedis loads a generated stream family into redis-server 7.0 and reads
// every key back with XRANGE.
func TestStreamFamilyInRedis(t *testing.T) {
	redistest.RedisServer(t)
	s := mustParse(t, streams, Params{Seed: 3, BaseTimeMS: time.Now().UnixMilli()})
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	must(t, err)
	w, err := rdbsink.NewWriter(f, encoder.Options{Target: "redis-7.0"})
	must(t, err)
	must(t, s.WriteTo(context.Background(), w))
	must(t, w.Close())
	must(t, f.Close())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, path, server.Options{Backend: server.BackendProcess})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(context.Background())
	c := inst.Client()
	fam := s.Families[0]
	for i := range fam.Keys() {
		want, err := fam.Record(i)
		must(t, err)
		groups, err := c.XInfoGroups(ctx, string(want.Key)).Result()
		must(t, err)
		if len(groups) != len(want.Stream.Groups) {
			t.Fatalf("%s: %d groups, want %d", want.Key, len(groups), len(want.Stream.Groups))
		}
		for k, g := range want.Stream.Groups { // the server lists them by name: audit, late, workers
			h := groups[map[string]int{"audit": 0, "late": 1, "workers": 2}[string(g.Name)]]
			if h.Name != string(g.Name) || h.LastDeliveredID != g.LastID.String() || h.Pending != int64(len(g.Pending)) ||
				h.Consumers != int64(len(g.Consumers)) || h.EntriesRead != g.EntriesRead {
				t.Fatalf("%s: group %d is %+v, want %+v", want.Key, k, h, g)
			}
		}
		got, err := c.Do(ctx, "XRANGE", string(want.Key), "-", "+").Slice()
		must(t, err)
		if len(got) != len(want.Members) {
			t.Fatalf("%s: %d entries, want %d", want.Key, len(got), len(want.Members))
		}
		for j, e := range got {
			pair := e.([]any)
			var fields []string
			for _, x := range pair[1].([]any) {
				fields = append(fields, x.(string))
			}
			var wantFields []string
			for _, x := range want.Members[j].Fields {
				wantFields = append(wantFields, string(x))
			}
			if pair[0] != want.Members[j].ID.String() || strings.Join(fields, "\x00") != strings.Join(wantFields, "\x00") {
				t.Fatalf("%s entry %d: %v %q, want %v %q", want.Key, j, pair[0], fields, want.Members[j].ID, wantFields)
			}
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
