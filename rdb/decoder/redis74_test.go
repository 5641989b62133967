package decoder_test

import (
	"context"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestRedis74FieldTTLDump reads the dump redis-server 7.4.1 wrote with hash field TTLs in
// each of its hash forms (testdata/redis74/README.md): the field TTLs the commands set, and
// none elsewhere; then writes it again as RDB 12 and reads that back to the same records.
func TestRedis74FieldTTLDump(t *testing.T) {
	var got record.Recorder
	if err := (decoder.File{Path: "testdata/redis74/fieldttl.rdb"}).WriteTo(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]record.Record{}
	for _, r := range got.Records {
		byKey[string(r.Key)] = r
	}
	if len(byKey) != 7 {
		t.Fatalf("%d keys, want 7", len(byKey))
	}
	const y2100 = 4102444800000
	ttls := func(key string) map[string]int64 {
		out := map[string]int64{}
		for _, m := range byKey[key].Members {
			if m.ExpireAtMS != 0 {
				out[string(m.Name)] = m.ExpireAtMS
			}
		}
		return out
	}
	for _, tt := range []struct {
		key      string
		members  int
		exact    map[string]int64 // fields whose TTL is known to the ms
		volatile []string         // every field with a TTL
	}{
		{"small", 3, map[string]int64{"b": y2100}, []string{"a", "b"}},
		{"big", 300, nil, []string{"f1", "f2", "f299"}},
		{"ht", 6, map[string]int64{"a": y2100, "c": y2100}, []string{"a", "c"}},
		{"plain", 1, nil, nil},
	} {
		r, ok := byKey[tt.key]
		if !ok || r.Type != record.Hash || len(r.Members) != tt.members {
			t.Errorf("%s: %v %v with %d members, want a hash of %d", tt.key, ok, r.Type, len(r.Members), tt.members)
			continue
		}
		have := ttls(tt.key)
		if len(have) != len(tt.volatile) {
			t.Errorf("%s: field TTLs %v, want on %v", tt.key, have, tt.volatile)
		}
		for _, f := range tt.volatile {
			if have[f] <= 1700000000000 {
				t.Errorf("%s: field %s expires at %d", tt.key, f, have[f])
			}
		}
		for f, at := range tt.exact {
			if have[f] != at {
				t.Errorf("%s: field %s expires at %d, want %d", tt.key, f, have[f], at)
			}
		}
	}
	if r := byKey["s"]; r.Type != record.String || r.ExpireAtMS == 0 {
		t.Errorf("s: %v expiring at %d", r.Type, r.ExpireAtMS)
	}

	path := writeFile(t, got.Records, encoder.Options{Target: "redis-7.4"})
	again, _ := readAll(t, path)
	diff(t, canonAll(again), canonAll(got.Records))
}
