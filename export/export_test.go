package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rdbgen/rdbgen/record"
)

// write exports recs (and libs, first) in format f, with detail when not nil.
func write(t *testing.T, f Format, recs record.Records, libs [][]byte, detail func(*Detail)) string {
	t.Helper()
	var out bytes.Buffer
	w, err := NewWriter(&out, Options{Format: f, Detail: detail, BufferSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range libs {
		if err := w.WriteFunction(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := recs.WriteTo(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := w.Written(); got != int64(out.Len()) {
		t.Errorf("Written() = %d, wrote %d", got, out.Len())
	}
	return out.String()
}

func m(name string) record.Member { return record.Member{Name: []byte(name)} }

// TestJSONL pins the object of each type, one a line.
func TestJSONL(t *testing.T) {
	exp := int64(4102444800123) // 2100-01-01T00:00:00.123Z
	tests := []struct {
		name string
		rec  record.Record
		want string
	}{
		{"string", record.Record{Key: []byte("k"), Type: record.String, Value: []byte("v")},
			`{"db":0,"key":"k","type":"string","value":"v"}`},
		{"expiring string in db 3", record.Record{DB: 3, Key: []byte("k"), Type: record.String, Value: []byte(""), ExpireAtMS: exp},
			`{"db":3,"key":"k","expiration":"2100-01-01T00:00:00.123Z","type":"string","value":""}`},
		{"expiry on the second", record.Record{Key: []byte("k"), Type: record.String, ExpireAtMS: 4102444800000},
			`{"db":0,"key":"k","expiration":"2100-01-01T00:00:00Z","type":"string","value":""}`},
		{"expiry past RFC 3339", record.Record{Key: []byte("k"), Type: record.String, ExpireAtMS: maxTimeMS},
			`{"db":0,"key":"k","expiration":253402300800000,"type":"string","value":""}`},
		{"list", record.Record{Key: []byte("l"), Type: record.List, Members: []record.Member{m("a"), m(""), m("a")}},
			`{"db":0,"key":"l","type":"list","values":["a","","a"]}`},
		{"set", record.Record{Key: []byte("s"), Type: record.Set, Members: []record.Member{m("x"), m("y")}},
			`{"db":0,"key":"s","type":"set","members":["x","y"]}`},
		{"zset", record.Record{Key: []byte("z"), Type: record.ZSet, Members: []record.Member{
			{Name: []byte("a"), Score: 1.5}, {Name: []byte("b"), Score: math.Inf(1)}, {Name: []byte("c"), Score: math.Inf(-1)},
			{Name: []byte("d"), Score: math.Copysign(0, -1)}, {Name: []byte("e"), Score: 1e21}, {Name: []byte("f"), Score: 1e-7}}},
			`{"db":0,"key":"z","type":"zset","entries":[{"member":"a","score":1.5},{"member":"b","score":"inf"},{"member":"c","score":"-inf"},` +
				`{"member":"d","score":-0},{"member":"e","score":1e+21},{"member":"f","score":1e-7}]}`},
		{"hash", record.Record{Key: []byte("h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}, {Name: []byte("g")}}},
			`{"db":0,"key":"h","type":"hash","hash":{"f":"v","g":""}}`},
		{"hash with field expiries", record.Record{Key: []byte("h"), Type: record.Hash, Members: []record.Member{
			{Name: []byte("f"), Value: []byte("v"), ExpireAtMS: exp}, {Name: []byte("g")}, {Name: []byte("i"), ExpireAtMS: 4102444800000}}},
			`{"db":0,"key":"h","type":"hash","hash":{"f":"v","g":"","i":""},"fieldExpirations":{"f":"2100-01-01T00:00:00.123Z","i":"2100-01-01T00:00:00Z"}}`},
		{"binary", record.Record{Key: []byte("a\x00b\xffc\r\n\"\\\t\x7f"), Type: record.String, Value: []byte("é\xc3(\xed\xa0\x80€\U0001F600")},
			`{"db":0,"key":"a\u0000b\udcffc\r\n\"\\\t` + "\x7f" + `","type":"string","value":"é\udcc3(\udced\udca0\udc80€😀"}`},
		{"stream without entries", record.Record{Key: []byte("x"), Type: record.Stream,
			Stream: record.StreamTail{Meta: record.StreamMeta{LastID: record.StreamID{Ms: 5, Seq: 2}, MaxDeletedID: record.StreamID{Ms: 5, Seq: 2}, EntriesAdded: 2}}},
			`{"db":0,"key":"x","type":"stream","version":3,"len":0,"lastId":"5-2","firstId":"0-0","maxDeletedId":"5-2","addedEntriesCount":2}`},
		{"stream", record.Record{Key: []byte("x"), Type: record.Stream,
			Members: []record.Member{
				{ID: record.StreamID{Ms: 1, Seq: 1}, Fields: [][]byte{[]byte("a"), []byte("1"), []byte("b"), []byte("2")}},
				{ID: record.StreamID{Ms: 1, Seq: 2}, Fields: [][]byte{[]byte("a"), []byte("3"), []byte("b"), []byte("4")}},
				{ID: record.StreamID{Ms: 2, Seq: 0}, Fields: [][]byte{[]byte("c"), []byte("5"), []byte("c"), []byte("6")}},
			},
			Stream: record.StreamTail{Groups: []record.StreamGroup{
				{Name: []byte("g"), LastID: record.StreamID{Ms: 1, Seq: 2}, EntriesRead: -1,
					Pending:   []record.StreamPending{{ID: record.StreamID{Ms: 1, Seq: 1}, DeliveryTimeMS: 1000, DeliveryCount: 2}},
					Consumers: []record.StreamConsumer{{Name: []byte("c"), SeenTimeMS: 1000, ActiveTimeMS: -1, Pending: []record.StreamID{{Ms: 1, Seq: 1}}}, {Name: []byte("idle"), SeenTimeMS: 7, ActiveTimeMS: 8}}},
				{Name: []byte("h"), EntriesRead: 0},
			}}},
			`{"db":0,"key":"x","type":"stream","entries":[` +
				`{"firstMsgId":"1-1","fields":["a","b"],"msgs":[{"id":"1-1","fields":{"a":"1","b":"2"},"deleted":false},{"id":"1-2","fields":{"a":"3","b":"4"},"deleted":false}]},` +
				`{"firstMsgId":"2-0","fields":["c","c"],"msgs":[{"id":"2-0","fields":{"c":"5","c":"6"},"deleted":false}]}],` +
				`"version":3,"groups":[{"name":"g","lastId":"1-2","pending":[{"id":"1-1","deliveryTime":1000,"deliveryCount":2}],` +
				`"consumers":[{"name":"c","seenTime":1000,"pending":["1-1"],"activeTime":18446744073709551615},{"name":"idle","seenTime":7,"activeTime":8}],` +
				`"entriesRead":18446744073709551615},{"name":"h","lastId":"0-0"}],` +
				`"len":3,"lastId":"2-0","firstId":"1-1","maxDeletedId":"0-0","addedEntriesCount":3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := write(t, FormatJSONL, record.Records{tt.rec}, nil, nil)
			if got != tt.want+"\n" {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if !json.Valid([]byte(got)) || !utf8.ValidString(got) {
				t.Errorf("not valid JSON in UTF-8: %s", got)
			}
		})
	}
}

// TestJSONArray checks the array around the objects, the functions and the Detail fields.
func TestJSONArray(t *testing.T) {
	recs := record.Records{
		{Key: []byte("a"), Type: record.String, Value: []byte("1")},
		{DB: 1, Key: []byte("b"), Type: record.List, Members: []record.Member{m("x")}},
	}
	lib := []byte("#!lua name=mylib\nredis.register_function('f', function() return 1 end)\n")
	n := int64(0)
	detail := func(d *Detail) { n++; d.Encoding, d.Memory = "listpack", 100*n }
	got := write(t, FormatJSON, recs, [][]byte{lib, []byte("no name")}, detail)
	want := "[\n" +
		`{"type":"function","name":"mylib","code":"#!lua name=mylib\nredis.register_function('f', function() return 1 end)\n"},` + "\n" +
		`{"type":"function","code":"no name"},` + "\n" +
		`{"db":0,"key":"a","type":"string","value":"1","encoding":"listpack","size":100},` + "\n" +
		`{"db":1,"key":"b","type":"list","values":["x"],"encoding":"listpack","size":200}` + "\n]\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var v []map[string]any
	if err := json.Unmarshal([]byte(got), &v); err != nil || len(v) != 4 {
		t.Errorf("not an array of 4 objects: %v", err)
	}
	if got := write(t, FormatJSON, nil, nil, nil); got != "[\n]\n" {
		t.Errorf("empty: %q", got)
	}
	if got := write(t, FormatJSONL, nil, nil, nil); got != "" {
		t.Errorf("empty JSON Lines: %q", got)
	}
}

// TestCSV checks the rows and the quoting of keys.
func TestCSV(t *testing.T) {
	recs := record.Records{
		{Key: []byte("plain"), Type: record.String, Value: []byte("1"), ExpireAtMS: 4102444800123},
		{DB: 2, Key: []byte("a,b\"c"), Type: record.Hash, Members: []record.Member{m("f"), m("g")}},
		{DB: 2, Key: []byte(" lead\xff\n"), Type: record.Stream, Members: []record.Member{{ID: record.StreamID{Ms: 1}}}},
	}
	detail := func(d *Detail) { d.Encoding, d.Bytes, d.Memory = "enc", 10, 20 }
	got := write(t, FormatCSV, recs, [][]byte{[]byte("#!lua name=x\n")}, detail)
	want := "db,key,type,encoding,bytes,members,expiry,memory\n" +
		"0,plain,string,enc,10,0,2100-01-01T00:00:00.123Z,20\n" +
		`2,"a,b\""c",hash,enc,10,2,,20` + "\n" +
		`2," lead\udcff\n",stream,enc,10,1,,20` + "\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := write(t, FormatCSV, recs[:1], nil, nil); got != "db,key,type,encoding,bytes,members,expiry,memory\n0,plain,string,,,0,2100-01-01T00:00:00.123Z,\n" {
		t.Errorf("without detail: %q", got)
	}
}

func TestNewWriterFormat(t *testing.T) {
	_, err := NewWriter(&bytes.Buffer{}, Options{Format: "xml"})
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `"xml"`) {
		t.Errorf("format xml: %v", err)
	}
}

// failing fails every write after the first n bytes.
type failing struct{ n int }

var errDisk = errors.New("disk full")

func (f *failing) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errDisk
	}
	f.n -= len(p)
	return len(p), nil
}

// TestWriteError: the first error of the io.Writer is every later call's.
func TestWriteError(t *testing.T) {
	w, err := NewWriter(&failing{n: 10}, Options{Format: FormatJSONL, BufferSize: 16})
	if err != nil {
		t.Fatal(err)
	}
	recs := make(record.Records, 10)
	for i := range recs {
		recs[i] = record.Record{Key: []byte("key"), Type: record.String, Value: []byte("value")}
	}
	if err := recs.WriteTo(context.Background(), w); !errors.Is(err, errDisk) {
		t.Fatalf("WriteTo: %v, want %v", err, errDisk)
	}
	if err := w.Close(); !errors.Is(err, errDisk) {
		t.Errorf("Close: %v", err)
	}
}

// TestRDBEncoding checks the names of a few types against hdt3213's.
func TestRDBEncoding(t *testing.T) {
	tests := []struct {
		t       byte
		enc     string
		version int
	}{{0, "string", 0}, {11, "intset", 0}, {14, "quicklist", 0}, {15, "listpack", 1}, {18, "quicklist2", 0},
		{19, "listpack", 2}, {21, "listpack", 3}, {25, "listpackex", 0}, {6, "", 0}, {200, "", 0}}
	for _, tt := range tests {
		if enc, v := RDBEncoding(tt.t); enc != tt.enc || v != tt.version {
			t.Errorf("RDBEncoding(%d) = %q, %d, want %q, %d", tt.t, enc, v, tt.enc, tt.version)
		}
	}
}

// TestConstantMemory: once its buffers have grown, the Writer allocates nothing per key or
// member, in any format: memory does not grow with the output.
func TestConstantMemory(t *testing.T) {
	for _, f := range Formats {
		w, err := NewWriter(io.Discard, Options{Format: f, BufferSize: 4096, Detail: func(d *Detail) { d.Encoding, d.Memory, d.Bytes = "listpack", 10, 10 }})
		if err != nil {
			t.Fatal(err)
		}
		recs := hardRecords()
		heads := make([]record.Header, len(recs)) // made once: Record.WriteTo allocates its own
		for i := range recs {
			heads[i] = recs[i].Header()
		}
		allocs := testing.AllocsPerRun(100, func() {
			for i := range recs {
				if err := w.Begin(&heads[i]); err != nil || recs[i].Type == record.String {
					continue
				}
				for k := range recs[i].Members {
					w.Add(&recs[i].Members[k])
				}
				w.End(&recs[i].Stream)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations a run", f, allocs)
		}
	}
}

// hardRecords are a record of each type, the hash's fields with expiries.
func hardRecords() []record.Record {
	return []record.Record{
		{Key: []byte("s\xff"), Type: record.String, Value: []byte("v"), ExpireAtMS: 4102444800123},
		{Key: []byte("l"), Type: record.List, Members: []record.Member{m("a"), m("b")}},
		{Key: []byte("z"), Type: record.ZSet, Members: []record.Member{{Name: []byte("a"), Score: 1.5}}},
		{Key: []byte("h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v"), ExpireAtMS: 4102444800123}}},
		{Key: []byte("x"), Type: record.Stream, Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
			Stream: record.StreamTail{Groups: []record.StreamGroup{{Name: []byte("g"), Consumers: []record.StreamConsumer{{Name: []byte("c")}}}}}},
	}
}
