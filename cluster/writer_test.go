package cluster_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// testRecord is a string record of the writer tests.
type testRecord struct {
	key, value string
	expireAtMS int64
}

// testRecords returns n plain keys, some with an expiry, and keys sharing hash tags.
func testRecords(n int) []testRecord {
	var rs []testRecord
	for i := range n {
		r := testRecord{key: fmt.Sprintf("key%d", i), value: fmt.Sprintf("v%d", i)}
		if i%3 == 0 {
			r.expireAtMS = 4102444800000 + int64(i)
		}
		rs = append(rs, r)
	}
	for _, tag := range []string{"user1000", "a", "{"} {
		for _, suffix := range []string{".following", ".followers", ":x"} {
			rs = append(rs, testRecord{key: "{" + tag + "}" + suffix, value: tag})
		}
	}
	return rs
}

// readShard parses a shard file with github.com/hdt3213/rdb and returns its string records
// and its RESIZEDB counts.
func readShard(t *testing.T, file []byte) (map[string]testRecord, [2]uint64) {
	t.Helper()
	got := map[string]testRecord{}
	var sizes [2]uint64
	err := parser.NewDecoder(bytes.NewReader(file)).WithSpecialOpCode().Parse(func(o parser.RedisObject) bool {
		switch o := o.(type) {
		case *parser.AuxObject:
		case *parser.DBSizeObject:
			sizes = [2]uint64{o.KeyCount, o.TTLCount}
		case *parser.StringObject:
			if o.GetDBIndex() != 0 {
				t.Errorf("key %q in db %d", o.Key, o.GetDBIndex())
			}
			var exp int64
			if o.Expiration != nil {
				exp = o.Expiration.UnixMilli()
			}
			got[o.Key] = testRecord{o.Key, string(o.Value), exp}
		default:
			t.Errorf("unexpected object %T", o)
		}
		return true
	})
	if err != nil {
		t.Fatalf("parse shard: %v", err)
	}
	return got, sizes
}

func TestWriterSplitsBySlot(t *testing.T) {
	uneven, err := cluster.NewLayout([]cluster.Shard{
		{Ranges: []cluster.Range{{First: 0, Last: 99}, {First: 10000, Last: 16383}}},
		{Ranges: []cluster.Range{{First: 100, Last: 9999}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	even3, _ := cluster.Even(3)
	one, _ := cluster.Even(1)
	many, _ := cluster.Even(300) // more than a byte's worth of shards
	records := testRecords(3000)
	for name, layout := range map[string]*cluster.Layout{"even3": even3, "uneven": uneven, "one": one, "300": many} {
		t.Run(name, func(t *testing.T) {
			counter := cluster.NewCounter(layout)
			for _, r := range records {
				counter.Add([]byte(r.key), r.expireAtMS > 0)
			}
			bufs := make([]*bytes.Buffer, layout.Len())
			dsts := make([]io.Writer, layout.Len())
			for i := range bufs {
				bufs[i] = new(bytes.Buffer)
				dsts[i] = bufs[i]
			}
			w, err := cluster.NewWriter(dsts, layout, cluster.WriterOptions{Counts: counter.Counts()})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range records {
				if err := writeString(w, []byte(r.key), []byte(r.value), r.expireAtMS); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			seen := 0
			for i, b := range bufs {
				got, sizes := readShard(t, b.Bytes())
				c := counter.Counts()[i]
				if want := [2]uint64{c.Keys, c.Expires}; sizes != want {
					t.Errorf("shard %d: RESIZEDB %v, want %v", i, sizes, want)
				}
				if st := w.Stats()[i]; st.Keys != uint64(len(got)) || st.Bytes != int64(b.Len()) {
					t.Errorf("shard %d: stats %+v for %d keys, %d bytes", i, st, len(got), b.Len())
				}
				for _, r := range got {
					if !layout.Shard(i).Owns(cluster.KeySlot(r.key)) {
						t.Errorf("shard %d holds %q of slot %d", i, r.key, cluster.KeySlot(r.key))
					}
				}
				seen += len(got)
				for _, r := range records {
					if layout.ShardOf([]byte(r.key)) == i && got[r.key] != r {
						t.Errorf("shard %d: %q = %+v, want %+v", i, r.key, got[r.key], r)
					}
				}
			}
			if seen != len(records) || w.Total().Keys != uint64(len(records)) {
				t.Fatalf("shards hold %d keys (total %d), want %d", seen, w.Total().Keys, len(records))
			}
		})
	}
}

// TestWriterHashTags checks that keys sharing a hash tag land in one shard.
func TestWriterHashTags(t *testing.T) {
	layout, _ := cluster.Even(3)
	a, b := layout.ShardOf([]byte("{user1000}.following")), layout.ShardOf([]byte("{user1000}.followers"))
	if a != b || a != layout.ShardOf([]byte("user1000")) {
		t.Fatalf("shards %d and %d", a, b)
	}
}

// TestWriterShardHook writes through Shard, as record sources of other types do.
func TestWriterShardHook(t *testing.T) {
	layout, _ := cluster.Even(2)
	var b0, b1 bytes.Buffer
	w, err := cluster.NewWriter([]io.Writer{&b0, &b1}, layout, cluster.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"foo", "bar"} { // slots 12182 and 5061
		if err := writeString(w.Shard([]byte(k)), []byte(k), []byte("v"), 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got0, sizes := readShard(t, b0.Bytes())
	got1, _ := readShard(t, b1.Bytes())
	if len(got0) != 1 || got0["bar"].value != "v" || len(got1) != 1 || got1["foo"].value != "v" {
		t.Fatalf("shard 0 %v, shard 1 %v", got0, got1)
	}
	if sizes != [2]uint64{} {
		t.Fatalf("RESIZEDB %v without counts", sizes)
	}
	if err := writeString(w, []byte("x"), nil, 0); !errors.Is(err, encoder.ErrClosed) {
		t.Fatalf("write after close: %v", err)
	}
}

// writeString writes a string into s.
func writeString(s record.Sink, key, value []byte, exp int64) error {
	return s.Begin(&record.Header{Key: key, Type: record.String, Value: value, ExpireAtMS: exp})
}

func TestWriterErrors(t *testing.T) {
	layout, _ := cluster.Even(2)
	two := []io.Writer{io.Discard, io.Discard}
	if _, err := cluster.NewWriter(two[:1], layout, cluster.WriterOptions{}); err == nil || !strings.Contains(err.Error(), "1 destinations for 2 shards") {
		t.Errorf("too few destinations: %v", err)
	}
	if _, err := cluster.NewWriter(two, layout, cluster.WriterOptions{Counts: make([]record.Counts, 3)}); err == nil || !strings.Contains(err.Error(), "3 counts for 2 shards") {
		t.Errorf("wrong counts: %v", err)
	}
	if _, err := cluster.NewWriter(two, layout, cluster.WriterOptions{Encoder: encoder.Options{Target: "redis-1"}}); !errors.Is(err, rdb.ErrUnknownTarget) {
		t.Errorf("bad target: %v", err)
	}
	// A count that turns out wrong fails Close, naming the shard.
	w, err := cluster.NewWriter(two, layout, cluster.WriterOptions{Counts: []record.Counts{{Keys: 1}, {Keys: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	writeString(w, []byte("bar"), []byte("v"), 0)
	writeString(w, []byte("foo"), []byte("v"), 0)
	if err := w.Close(); !errors.Is(err, encoder.ErrCountMismatch) || !strings.HasPrefix(err.Error(), "shard 1: ") {
		t.Fatalf("Close = %v, want shard 1's count mismatch", err)
	}
}

// TestWriterCollectionOpen checks that a record written while a collection is open fails
// with encoder.ErrCollectionOpen, as with a single rdbsink.Writer, also when its key belongs
// to another shard than the collection's.
func TestWriterCollectionOpen(t *testing.T) {
	layout, _ := cluster.Even(2) // "bar" is in shard 0 (slot 5061), "foo" in shard 1 (slot 12182)
	w, err := cluster.NewWriter([]io.Writer{io.Discard, io.Discard}, layout, cluster.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(&record.Header{Key: []byte("bar"), Type: record.Set, Len: 1}); err != nil {
		t.Fatal(err)
	}
	if err := writeString(w, []byte("foo"), []byte("v"), 0); !errors.Is(err, encoder.ErrCollectionOpen) {
		t.Errorf("a string in another shard while a set is open = %v, want ErrCollectionOpen", err)
	}
	if err := w.Begin(&record.Header{Key: []byte("foo"), Type: record.Hash, Len: 1}); !errors.Is(err, encoder.ErrCollectionOpen) {
		t.Errorf("a hash in another shard while a set is open = %v, want ErrCollectionOpen", err)
	}
	if err := w.Close(); !errors.Is(err, encoder.ErrCollectionOpen) || !strings.HasPrefix(err.Error(), "shard 0: ") {
		t.Errorf("Close = %v, want shard 0's ErrCollectionOpen", err)
	}
	if s := w.Stats(); s[1].Keys != 0 {
		t.Errorf("shard 1 holds %d keys, want none", s[1].Keys)
	}
}

func ExampleWriter() {
	layout, _ := cluster.Even(3)
	files := []io.Writer{new(bytes.Buffer), new(bytes.Buffer), new(bytes.Buffer)}
	w, _ := cluster.NewWriter(files, layout, cluster.WriterOptions{})
	for _, key := range []string{"foo", "bar", "{user1000}.following", "{user1000}.followers"} {
		w.Begin(&record.Header{Key: []byte(key), Type: record.String, Value: []byte("value")})
	}
	w.Close()
	for i, s := range w.Stats() {
		fmt.Printf("%s: slots %s, %d keys\n", cluster.ShardFile(i), layout.Shard(i).RangesString(), s.Keys)
	}
	// Output:
	// shard-0.rdb: slots 0-5460, 3 keys
	// shard-1.rdb: slots 5461-10922, 0 keys
	// shard-2.rdb: slots 10923-16383, 1 keys
}
