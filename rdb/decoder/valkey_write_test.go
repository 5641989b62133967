package decoder_test

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// TestValkeyFormatRoundTrip writes hashes with field TTLs (small, and past every listpack
// threshold), a hash without, and keys of other types, in two databases, as Valkey 9's
// VALKEY080 (encoder's ValkeyFormat), and reads them back as the same records: the field
// TTLs kept, -1 read as none.
func TestValkeyFormatRoundTrip(t *testing.T) {
	big := record.Record{Key: []byte("big"), Type: record.Hash, ExpireAtMS: 4102444800000}
	for i := range 300 {
		m := record.Member{Name: fmt.Appendf(nil, "f%d", i), Value: bytes.Repeat([]byte{'v'}, i)}
		if i%3 == 0 {
			m.ExpireAtMS = 4102444800000 + int64(i)
		}
		big.Members = append(big.Members, m)
	}
	dbs := map[int]record.Records{
		0: {
			{Key: []byte("small"), Type: record.Hash, Members: []record.Member{
				{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: 1893456000000}, {Name: []byte("b"), Value: []byte("\xff")}}},
			big,
			{Key: []byte("plain"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}},
		},
		3: {
			{Key: []byte("s"), Type: record.String, Value: []byte("x"), ExpireAtMS: 4102444800000},
			{Key: []byte("z"), Type: record.ZSet, Members: []record.Member{{Name: []byte("m"), Score: 1.5}}},
			{Key: []byte("l"), Type: record.List, Members: []record.Member{{Name: []byte("e")}}},
			{Key: []byte("one"), Type: record.Hash, Members: []record.Member{{Name: []byte("only"), Value: []byte("v"), ExpireAtMS: 1893456000001}}},
		},
	}
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "valkey-9.0", RDBVersion: rdb.ValkeyVersion})
	if err != nil {
		t.Fatal(err)
	}
	for _, db := range []int{0, 3} {
		if err := w.BeginDB(db, record.Counts{}); err != nil {
			t.Fatal(err)
		}
		for i := range dbs[db] {
			if err := dbs[db][i].WriteTo(w); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("VALKEY080")) {
		t.Fatalf("header %q", buf.Bytes()[:9])
	}
	rd, err := decoder.NewReader(bytes.NewReader(buf.Bytes()), decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got record.Recorder
	if err := rd.WriteTo(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	var want []record.Record
	for _, db := range []int{0, 3} {
		for _, r := range dbs[db] {
			r.DB = db
			want = append(want, r)
		}
	}
	if len(got.Records) != len(want) {
		t.Fatalf("%d records, want %d", len(got.Records), len(want))
	}
	for i := range want {
		if g, w := fmt.Sprintf("%+v", got.Records[i]), fmt.Sprintf("%+v", want[i]); g != w {
			t.Errorf("record %d:\n got %.300s\nwant %.300s", i, g, w)
		}
	}
	if !reflect.DeepEqual(got.Records[1].Members, big.Members) {
		t.Error("big: members differ")
	}
}
