package rdbsink_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/model"
	"github.com/hdt3213/rdb/parser"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func strs(s ...string) [][]byte {
	b := make([][]byte, len(s))
	for i, x := range s {
		b[i] = []byte(x)
	}
	return b
}

// parseObjects reads a file with the independent hdt3213 parser.
func parseObjects(t *testing.T, file []byte) map[string]model.RedisObject {
	t.Helper()
	objs := map[string]model.RedisObject{}
	err := parser.NewDecoder(bytes.NewReader(file)).Parse(func(o parser.RedisObject) bool {
		if o.GetType() != parser.AuxType && o.GetType() != parser.DBSizeType {
			objs[o.GetKey()] = o
		}
		return true
	})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return objs
}

// TestRecordWriteTo writes a record of each type with Record.WriteTo, the way sources
// write them, and reads the file back with the hdt3213 parser: every key, its type and its
// members.
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
	w, err := rdbsink.NewWriter(&buf, encoder.Options{RDBVersion: 10, CheckDuplicates: true})
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
	if dbs := w.DBs(); len(dbs) != 1 || dbs[0] != (record.Counts{Keys: 6, Expires: 1}) {
		t.Fatalf("DBs %v, want db 0 with 6 keys, 1 expiring", dbs)
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
	if s, ok := objs["s"].(*model.StringObject); !ok || string(s.Value) != "v" || s.GetExpiration() == nil || s.GetExpiration().UnixMilli() != 1893456000000 {
		t.Errorf("string: %+v", objs["s"])
	}
	if h, ok := objs["h"].(*model.HashObject); !ok || len(h.Hash) != 2 || string(h.Hash["a"]) != "1" || string(h.Hash["b"]) != "2" {
		t.Errorf("hash: %+v", objs["h"])
	}
	if l, ok := objs["l"].(*model.ListObject); !ok || len(l.Values) != 2 || string(l.Values[0]) != "a" || string(l.Values[1]) != "b" {
		t.Errorf("list: %+v", objs["l"])
	}
	if z, ok := objs["z"].(*model.ZSetObject); !ok || len(z.Entries) != 2 || z.Entries[0].Member != "a" || z.Entries[0].Score != 1 || z.Entries[1].Score != 2 {
		t.Errorf("zset: %+v", objs["z"])
	}
}

// TestErrors checks what the adapter adds to the writer: the record sentinels beside the
// writer's (errors.Is finds both, the message names the record one), and the checks only
// the record vocabulary knows.
func TestErrors(t *testing.T) {
	fn := []byte("#!lua name=mylib\nreturn 1")
	tests := []struct {
		name    string
		opts    encoder.Options
		write   func(w *rdbsink.Writer) error
		want    []error
		wantMsg string
	}{
		{"duplicate key", encoder.Options{CheckDuplicates: true}, func(w *rdbsink.Writer) error {
			w.Begin(&record.Header{Key: []byte("k"), Type: record.String})
			return w.Begin(&record.Header{Key: []byte("k"), Type: record.String})
		}, []error{record.ErrDuplicateKey, encoder.ErrDuplicateKey}, `write key "k" in db 0: record: duplicate key`},
		{"duplicate key, fast path", encoder.Options{CheckDuplicates: true}, func(w *rdbsink.Writer) error {
			w.WriteString([]byte("k"), nil, 0)
			return w.WriteString([]byte("k"), nil, 0)
		}, []error{record.ErrDuplicateKey, encoder.ErrDuplicateKey}, `write key "k" in db 0: record: duplicate key`},
		{"duplicate member", encoder.Options{CheckDuplicates: true}, func(w *rdbsink.Writer) error {
			w.Begin(&record.Header{Key: []byte("s"), Type: record.Set, Len: 2})
			w.Add(&record.Member{Name: []byte("m")})
			return w.Add(&record.Member{Name: []byte("m")})
		}, []error{record.ErrDuplicateMember, encoder.ErrDuplicateMember}, `member "m": record: duplicate member`},
		{"empty", encoder.Options{}, func(w *rdbsink.Writer) error {
			return w.Begin(&record.Header{Key: []byte("h"), Type: record.Hash})
		}, []error{record.ErrEmpty, encoder.ErrEmpty}, `write key "h": record: empty collection`},
		{"nan score", encoder.Options{}, func(w *rdbsink.Writer) error {
			w.Begin(&record.Header{Key: []byte("z"), Type: record.ZSet, Len: 1})
			nan := 0.0
			return w.Add(&record.Member{Name: []byte("m"), Score: nan / nan})
		}, []error{record.ErrNaNScore, encoder.ErrNaNScore}, "record: score is NaN"},
		{"module value", encoder.Options{Target: "redis-7.0"}, func(w *rdbsink.Writer) error {
			return w.Begin(&record.Header{Key: []byte("m"), Type: record.Module, ModuleID: 1 << 10, Value: []byte{5}})
		}, []error{record.ErrModuleValue, encoder.ErrModuleValue}, `write key "m"`},
		{"unknown type", encoder.Options{}, func(w *rdbsink.Writer) error {
			return w.Begin(&record.Header{Key: []byte("b"), Type: "bitmap", Len: 1})
		}, []error{record.ErrBadType}, `key "b": record: unknown type "bitmap"`},
		{"member with none open", encoder.Options{}, func(w *rdbsink.Writer) error {
			return w.Add(&record.Member{Name: []byte("m")})
		}, []error{encoder.ErrNoCollection}, "add a member with none open"},
		{"library without name", encoder.Options{Target: "redis-7.0"}, func(w *rdbsink.Writer) error {
			return w.WriteFunction([]byte("return 1"))
		}, []error{record.ErrLibraryCode}, `function library with first line "return 1"`},
		{"library before RDB 10", encoder.Options{Target: "redis-6.2"}, func(w *rdbsink.Writer) error {
			return w.WriteFunction(fn)
		}, []error{rdb.ErrCannotHold}, `function library "mylib": a function library needs RDB 10`},
		{"module AUX before RDB 9", encoder.Options{RDBVersion: 8, Target: "redis-5.0"}, func(w *rdbsink.Writer) error {
			return w.WriteModuleAux(&record.ModuleAux{ModuleID: 1 << 10, When: record.ModuleAuxBefore, Value: []byte{0}})
		}, []error{rdb.ErrCannotHold}, `module AUX of "AAAAAAAAB" (encoding version 0): `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := rdbsink.NewWriter(new(bytes.Buffer), tt.opts)
			must(t, err)
			must(t, w.BeginDB(0, record.Counts{}))
			err = tt.write(w)
			for _, want := range tt.want {
				if !errors.Is(err, want) {
					t.Errorf("got %v, want %v", err, want)
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("got %v, want it saying %q", err, tt.wantMsg)
			}
			// The writer keeps the error: Close returns it, and writes no more.
			if cerr := w.Close(); cerr == nil || cerr.Error() != err.Error() {
				t.Errorf("Close: %v, want %v", cerr, err)
			}
		})
	}
}

// TestPayloadWriter writes a key of each kind as a payload and refuses libraries and
// module AUX data with the record errors.
func TestPayloadWriter(t *testing.T) {
	p, err := rdbsink.NewPayloadWriter(encoder.Options{Target: "redis-7.0"}, 0)
	must(t, err)
	must(t, p.BeginDB(3, record.Counts{}))
	must(t, p.Begin(&record.Header{Key: []byte("s"), Type: record.String, Value: []byte("v")}))
	b, err := p.Payload()
	must(t, err)
	// Type 0, the string "v", version 10, checksum.
	if !bytes.HasPrefix(b, []byte{0, 1, 'v', 10, 0}) || len(b) != 13 {
		t.Fatalf("payload % x", b)
	}
	if _, err := rdb.CheckPayload(b, 10); err != nil {
		t.Fatal(err)
	}
	must(t, p.Begin(&record.Header{Key: []byte("l"), Type: record.List, Len: 1}))
	must(t, p.Add(&record.Member{Name: []byte("e")}))
	must(t, p.End(nil))
	if _, err := p.Payload(); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteFunction([]byte("#!lua name=f\n")); !errors.Is(err, record.ErrFunctionsUnsupported) {
		t.Errorf("WriteFunction: %v", err)
	}
	if err := p.WriteModuleAux(&record.ModuleAux{ModuleID: 1 << 10, Value: []byte{0}}); !errors.Is(err, record.ErrModuleAuxUnsupported) {
		t.Errorf("WriteModuleAux: %v", err)
	}
	must(t, p.Close())
}

// TestCheck asks the capability table through record headers.
func TestCheck(t *testing.T) {
	tests := []struct {
		h      record.Header
		target string
		rdb    int
		drop   bool
		needs  rdb.Feature
		holds  bool
	}{
		{record.Header{Type: record.String}, "redis-5.0", 7, false, 0, true},
		{record.Header{Type: record.Hash, Len: 1}, "redis-5.0", 7, false, 0, true},
		{record.Header{Type: record.Stream}, "redis-5.0", 8, false, rdb.Streams, false},
		{record.Header{Type: record.Stream}, "redis-5.0", 0, false, rdb.Streams, true},
		{record.Header{Type: record.Module, ModuleID: 1 << 10}, "redis-5.0", 7, false, rdb.ModuleValues, false},
		{record.Header{Type: record.Module, ModuleID: 1 << 10}, "redis-5.0", 8, false, rdb.ModuleValues, true},
		{record.Header{Type: record.Hash, Len: 1, MinFieldExpireAtMS: 1}, "redis-7.2", 0, false, rdb.HashFieldTTL, false},
		{record.Header{Type: record.Hash, Len: 1, FieldTTLs: true}, "redis-7.2", 0, true, rdb.HashFieldTTL, true},
		{record.Header{Type: record.Hash, Len: 1, FieldTTLs: true}, "redis-7.4", 0, false, rdb.HashFieldTTL, true},
	}
	for _, tt := range tests {
		caps, err := encoder.Options{Target: tt.target, RDBVersion: tt.rdb, DropFieldTTL: tt.drop}.Check()
		must(t, err)
		if got := rdbsink.Needs(&tt.h); got != tt.needs {
			t.Errorf("%s %+v: needs %v, want %v", tt.target, tt.h, got, tt.needs)
		}
		err = rdbsink.Check(caps, &tt.h)
		if (err == nil) != tt.holds || err != nil && !errors.Is(err, rdb.ErrCannotHold) {
			t.Errorf("%s %+v: %v, want holds %v", tt.target, tt.h, err, tt.holds)
		}
	}
}

// A hash whose fields expire: its header carries the smallest field expiry.
func ExampleWriter() {
	w, err := rdbsink.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.4", CreatedAt: time.Unix(0, 0)})
	if err != nil {
		panic(err)
	}
	w.BeginDB(0, record.Counts{Keys: 1})
	r := record.Record{Key: []byte("session:1"), Type: record.Hash, Members: []record.Member{
		{Name: []byte("user"), Value: []byte("ada")},
		{Name: []byte("token"), Value: []byte("x1y2"), ExpireAtMS: 1893456000000},
	}}
	if err := r.WriteTo(w); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	fmt.Println(w.Stats().Keys, "key,", w.Stats().Members, "fields")
	// Output: 1 key, 2 fields
}
