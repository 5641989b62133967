package decoder_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// payloadStream is a stream with a consumer group whose pending entries include one no
// longer in the stream.
func payloadStream() record.Record {
	id := func(ms uint64) record.StreamID { return record.StreamID{Ms: ms, Seq: 1} }
	var entries []record.Member
	for ms := uint64(1); ms <= 300; ms++ {
		if ms != 7 {
			entries = append(entries, record.Member{ID: id(ms), Fields: [][]byte{[]byte("f"), []byte("v")}})
		}
	}
	return record.Record{Key: []byte("st"), Type: record.Stream, Members: entries, Stream: record.StreamTail{
		Meta: record.StreamMeta{Length: 299, LastID: id(300), FirstID: id(1), MaxDeletedID: id(7), EntriesAdded: 300},
		Groups: []record.StreamGroup{{Name: []byte("g"), LastID: id(9), EntriesRead: 9,
			Pending:   []record.StreamPending{{ID: id(7), DeliveryTimeMS: 1700000000000, DeliveryCount: 2}, {ID: id(9), DeliveryTimeMS: 1700000000001, DeliveryCount: 1}},
			Consumers: []record.StreamConsumer{{Name: []byte("alice"), SeenTimeMS: 1700000000002, ActiveTimeMS: 1700000000001, Pending: []record.StreamID{id(7), id(9)}}}}},
	}}
}

// payloadOf returns the DUMP payload of r for target.
func payloadOf(t testing.TB, r record.Record, target string) []byte {
	t.Helper()
	pw, err := rdbsink.NewPayloadWriter(encoder.Options{Target: target}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteTo(pw); err != nil {
		t.Fatal(err)
	}
	p, err := pw.Payload()
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(p)
}

// TestPayloadReaderRoundTrip reads the payloads that encoder.PayloadWriter writes of every
// type, for RDB versions of several servers, back into the records written.
func TestPayloadReaderRoundTrip(t *testing.T) {
	pr, err := decoder.NewPayloadReader(decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"redis-5.0", "redis-7.0", "redis-7.4"} {
		var got, want []string
		for _, r := range append(sampleRecords(), payloadStream()) {
			r.DB = 0
			var c record.Collector
			if err := pr.WriteTo(context.Background(), r.Key, r.ExpireAtMS, payloadOf(t, r, target), &c); err != nil {
				t.Fatalf("%s %s: %v", target, r.Key, err)
			}
			got, want = append(got, canon(&c.Rec)), append(want, canon(&r))
			if r.Type == record.Stream && target == "redis-7.4" && !reflect.DeepEqual(c.Rec.Stream, r.Stream) {
				t.Errorf("%s: the stream's tail reads\n%+v\nwant\n%+v", target, c.Rec.Stream, r.Stream)
			}
		}
		diff(t, got, want)
	}
}

// TestPayloadReaderDamage checks the errors of damaged payloads: each an *Error naming the
// key.
func TestPayloadReaderDamage(t *testing.T) {
	good := payloadOf(t, record.Record{Key: []byte("h"), Type: record.Hash,
		Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}}, "redis-7.0")
	object := good[:len(good)-10]
	retrail := func(obj []byte, version int) []byte {
		return rdb.AppendPayloadTrailer(bytes.Clone(obj), version)
	}
	flipped := bytes.Clone(good)
	flipped[3] ^= 1
	tests := []struct {
		name    string
		payload []byte
		want    error
	}{
		{"short", good[:9], decoder.ErrCorrupt},
		{"checksum", flipped, decoder.ErrCorrupt},
		{"newer version", retrail(object, decoder.MaxVersion+1), decoder.ErrVersion},
		{"cut value", retrail(object[:len(object)-2], 10), decoder.ErrTruncated},
		{"bytes after the value", retrail(append(bytes.Clone(object), 0), 10), decoder.ErrCorrupt},
		{"unknown type", retrail(append([]byte{99}, object[1:]...), 10), decoder.ErrCorrupt},
	}
	pr, err := decoder.NewPayloadReader(decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		err := pr.WriteTo(context.Background(), []byte("key"), 0, tt.payload, record.Discard{})
		var de *decoder.Error
		if !errors.Is(err, tt.want) || !errors.As(err, &de) || string(de.Key) != "key" {
			t.Errorf("%s: %v, want an *Error about key wrapping %v", tt.name, err, tt.want)
		}
	}
	// The reader goes on after damage.
	if err := pr.WriteTo(context.Background(), []byte("h"), 0, good, record.Discard{}); err != nil {
		t.Errorf("a good payload after damaged ones: %v", err)
	}
	if _, err := decoder.NewPayloadReader(decoder.Options{OnDuplicate: record.DupError}); !errors.Is(err, decoder.ErrBadOption) {
		t.Errorf("OnDuplicate: %v, want ErrBadOption", err)
	}
}

// FuzzPayloadReader reads arbitrary objects with a good trailer: an error or records, never
// a panic.
func FuzzPayloadReader(f *testing.F) {
	for _, r := range append(sampleRecords()[:6], payloadStream()) {
		p := payloadOf(f, r, "redis-7.0")
		f.Add(p[:len(p)-10])
	}
	pr, err := decoder.NewPayloadReader(decoder.Options{MaxHeldBytes: 1 << 20})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, object []byte) {
		_ = pr.WriteTo(context.Background(), []byte("k"), 0, rdb.AppendPayloadTrailer(object, 10), record.Discard{})
	})
}
