package memory_test

import (
	"fmt"
	"slices"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/mixedfill"
	"github.com/rdbgen/rdbgen/record"
)

// A recipe is a dataset the estimate is measured on, by name: testdata/measured.json
// records what real servers held once they loaded it, and the tests rebuild it to check
// the estimate against those figures.
type recipe struct {
	name string
	// fieldTTL: hashes with field TTLs, for the targets that hold them alone.
	fieldTTL bool
	src      func() record.Source
}

// recipes returns the datasets of the recorded measurements. They must not change once
// recorded (the figures would no longer be theirs): a new dataset is a new name.
func recipes() []recipe {
	ttl := func(d dataset.Config) dataset.Config {
		d.TTL, d.BaseTimeMS = 24*time.Hour, time.Now().UnixMilli()
		return d
	}
	of := func(d dataset.Config) func() record.Source { return func() record.Source { return &d } }
	return []recipe{
		{name: "strings-100k", src: of(str(100_000))},
		{name: "strings-random-100B-ttl-50k", src: of(ttl(random(str(50_000), 100)))},
		{name: "hash-10-fields-20k", src: of(coll(20_000, record.Hash, 10))},
		{name: "hash-1000-fields-100", src: of(coll(100, record.Hash, 1000))},
		{name: "list-10-20k", src: of(coll(20_000, record.List, 10))},
		{name: "list-10000-50", src: of(coll(50, record.List, 10_000))},
		{name: "set-10-20k", src: of(coll(20_000, record.Set, 10))},
		{name: "set-random-10-20k", src: of(random(coll(20_000, record.Set, 10), 20))},
		{name: "set-1000-100", src: of(coll(100, record.Set, 1000))},
		{name: "zset-10-20k", src: of(coll(20_000, record.ZSet, 10))},
		{name: "zset-1000-100", src: of(coll(100, record.ZSet, 1000))},
		{name: "stream-500-entries-400-pending-200", src: func() record.Source { return streamsPending(200, 500, 400) }},
		{name: "hash-5-field-ttls-10k", fieldTTL: true, src: func() record.Source { return hashesFieldTTL(10_000, 5) }},
		{name: "hash-600-field-ttls-50", fieldTTL: true, src: func() record.Source { return hashesFieldTTL(50, 600) }},
		// Added with issue 34 (item 16): counts around the hostile tester's, both
		// encodings of each type.
		{name: "strings-1k", src: of(str(1000))},
		{name: "strings-30k", src: of(str(30_000))},
		{name: "strings-300k", src: of(str(300_000))},
		{name: "strings-int-50k", src: func() record.Source { return ints(50_000) }},
		{name: "strings-random-60B-20k", src: of(random(str(20_000), 60))},
		{name: "zset-20-1k", src: of(coll(1000, record.ZSet, 20))},
		{name: "zset-20-20k", src: of(coll(20_000, record.ZSet, 20))},
		{name: "zset-random-20-20k", src: of(random(coll(20_000, record.ZSet, 20), 20))},
		{name: "zset-200-2k", src: of(coll(2000, record.ZSet, 200))},
		{name: "stream-20-entries-100", src: of(coll(100, record.Stream, 20))},
		{name: "stream-20-entries-5k", src: of(coll(5000, record.Stream, 20))},
		{name: "stream-20-entries-group-5k", src: func() record.Source { return streamsPending(5000, 20, 0) }},
		{name: "stream-20-entries-10-pending-5k", src: func() record.Source { return streamsPending(5000, 20, 10) }},
		{name: "stream-5000-entries-20", src: of(coll(20, record.Stream, 5000))},
		{name: "hash-20-field-ttls-5k", fieldTTL: true, src: func() record.Source { return hashesFieldTTL(5000, 20) }},
		{name: "hash-200-field-ttls-500", fieldTTL: true, src: func() record.Source { return hashesFieldTTL(500, 200) }},
		{name: "mixed", src: func() record.Source {
			recs := mixedfill.Records()
			slices.SortStableFunc(recs, func(a, b record.Record) int { return a.DB - b.DB })
			return record.Records(recs)
		}},
	}
}

// str is a dataset of n strings named key100000001 on, each its name as value.
func str(n uint64) dataset.Config {
	return dataset.Config{Count: n, KeyPrefix: "key", KeyStart: 100000001}
}

// coll is a dataset of n collections of typ, of members members each.
func coll(n uint64, typ record.Type, members uint64) dataset.Config {
	d := str(n)
	d.Type, d.Members = typ, dataset.Range{Min: members, Max: members}
	return d
}

// random gives d random values of size bytes.
func random(d dataset.Config, size int) dataset.Config {
	d.Value, d.ValueSize = dataset.ValueRandom, size
	return d
}

// ints returns n strings whose values are integers from 10000 on, which are not shared.
func ints(n int) record.Records {
	recs := make(record.Records, n)
	for i := range recs {
		recs[i] = record.Record{Key: fmt.Appendf(nil, "int:%d", i), Type: record.String, Value: fmt.Appendf(nil, "%d", 10_000+i*7)}
	}
	return recs
}

// streamsPending returns n streams of entries entries each, with one consumer group whose
// first pending entries (none: the group has read them all and acknowledged them) are
// pending, shared by two consumers.
func streamsPending(n, entries, pending int) record.Records {
	recs := make(record.Records, n)
	at := uint64(time.Now().UnixMilli())
	for i := range recs {
		r := record.Record{Key: fmt.Appendf(nil, "stream:%d", i), Type: record.Stream}
		for j := range entries {
			r.Members = append(r.Members, record.Member{ID: record.StreamID{Ms: at + uint64(j)}, Fields: [][]byte{[]byte("field"), fmt.Appendf(nil, "value-%d", j)}})
		}
		read := entries
		if pending > 0 {
			read = pending
		}
		g := record.StreamGroup{Name: []byte("group"), LastID: r.Members[read-1].ID, EntriesRead: int64(read),
			Consumers: []record.StreamConsumer{{Name: []byte("alice"), SeenTimeMS: int64(at), ActiveTimeMS: int64(at)}, {Name: []byte("bob"), SeenTimeMS: int64(at), ActiveTimeMS: int64(at)}}}
		for j := range pending {
			id := r.Members[j].ID
			g.Pending = append(g.Pending, record.StreamPending{ID: id, DeliveryTimeMS: int64(at), DeliveryCount: 1})
			c := &g.Consumers[j%2]
			c.Pending = append(c.Pending, id)
		}
		r.Stream.Groups = []record.StreamGroup{g}
		recs[i] = r
	}
	return recs
}

// hashesFieldTTL returns n hashes of fields fields, each field with an expiry a day ahead.
func hashesFieldTTL(n, fields int) record.Records {
	recs := make(record.Records, n)
	at := time.Now().Add(24 * time.Hour).UnixMilli()
	for i := range recs {
		r := record.Record{Key: fmt.Appendf(nil, "hash:%d", i), Type: record.Hash}
		for j := range fields {
			r.Members = append(r.Members, record.Member{Name: fmt.Appendf(nil, "field-%d", j), Value: fmt.Appendf(nil, "value-%d", j), ExpireAtMS: at + int64(j)})
		}
		recs[i] = r
	}
	return recs
}
