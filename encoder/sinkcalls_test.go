package encoder

import (
	"bytes"
	"testing"

	"github.com/rdbgen/rdbgen/record"
)

// The record.Sink calls spelled out by kind, for tests that write a key call by call (with
// any Sink: a Writer, a PayloadWriter).

func sinkString(s record.Sink, key, value []byte, expireAtMS int64) error {
	return s.Begin(&record.Header{Key: key, Type: record.String, Value: value, ExpireAtMS: expireAtMS})
}

func sinkOpen(s record.Sink, t record.Type, key []byte, n uint64, expireAtMS int64) error {
	return s.Begin(&record.Header{Key: key, Type: t, Len: n, ExpireAtMS: expireAtMS})
}

func sinkOpenTTL(s record.Sink, key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	return s.Begin(&record.Header{Key: key, Type: record.Hash, Len: n, ExpireAtMS: expireAtMS, MinFieldExpireAtMS: minFieldExpireAtMS, FieldTTLs: true})
}

func sinkStream(s record.Sink, key []byte, expireAtMS int64) error {
	return s.Begin(&record.Header{Key: key, Type: record.Stream, ExpireAtMS: expireAtMS})
}

// sinkAdd adds a list element or a set member.
func sinkAdd(s record.Sink, name []byte) error { return s.Add(&record.Member{Name: name}) }

func sinkField(s record.Sink, name, value []byte) error {
	return s.Add(&record.Member{Name: name, Value: value})
}

func sinkFieldTTL(s record.Sink, name, value []byte, expireAtMS int64) error {
	return s.Add(&record.Member{Name: name, Value: value, ExpireAtMS: expireAtMS})
}

func sinkScored(s record.Sink, name []byte, score float64) error {
	return s.Add(&record.Member{Name: name, Score: score})
}

func sinkEntry(s record.Sink, id record.StreamID, fields [][]byte) error {
	return s.Add(&record.Member{ID: id, Fields: fields})
}

func sinkEnd(s record.Sink) error { return s.End(nil) }

// sinkEndStream ends a stream with its metadata and groups.
func sinkEndStream(s record.Sink, meta record.StreamMeta, groups ...record.StreamGroup) error {
	return s.End(&record.StreamTail{Meta: meta, Groups: groups})
}

// TestRecordWriteTo writes a record of each type with Record.WriteTo, the way sources
// write them, and reads the file back with the hdt3213 parser.
func TestRecordWriteTo(t *testing.T) {
	two := []record.Member{{Name: []byte("a"), Value: []byte("1"), Score: 1}, {Name: []byte("b"), Value: []byte("2"), Score: 2}}
	recs := []record.Record{
		{Key: []byte("s"), Value: []byte("v"), ExpireAtMS: 1893456000000},
		{Key: []byte("h"), Type: record.Hash, Members: two},
		{Key: []byte("l"), Type: record.List, Members: two},
		{Key: []byte("set"), Type: record.Set, Members: two},
		{Key: []byte("z"), Type: record.ZSet, Members: two},
		{Key: []byte("x"), Type: record.Stream, Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: strs("f", "v")}}},
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Options{RDBVersion: 10, CheckDuplicates: true})
	must(t, err)
	must(t, w.BeginDB(0, record.Counts{Keys: 6, Expires: 1}))
	for _, r := range recs {
		if err := r.WriteTo(w); err != nil {
			t.Fatalf("%s: %v", r.Key, err)
		}
	}
	must(t, w.Close())
	if s := w.Stats(); s.Keys != 6 || s.Expires != 1 || s.Members != 9 {
		t.Fatalf("stats %+v, want 6 keys, 1 expiry, 9 members", s)
	}
	objs := parseObjects(t, buf.Bytes())
	for _, r := range recs {
		want := string(r.Type)
		if r.Type == "" {
			want = "string"
		}
		if o, ok := objs[string(r.Key)]; !ok || o.GetType() != want {
			t.Errorf("%s: %v, want a %s", r.Key, o, want)
		}
	}
}
