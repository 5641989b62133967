package decoder_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// body is the opcode stream of a module value after its id: every opcode, a STRING as an
// integer, a raw string and an LZF string (a literal run: "hello world, hello!" after a
// 0x12 control byte), a 64-bit UINT, then EOF.
var body = fx.Cat(
	[]byte{fx.ModUInt}, fx.Len(3),
	[]byte{fx.ModSInt}, fx.Len(1<<40),
	[]byte{fx.ModFloat}, []byte{0, 0, 0xc0, 0x3f},
	[]byte{fx.ModDouble}, []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x3f},
	[]byte{fx.ModString}, []byte{0xc0, 7},
	[]byte{fx.ModString}, fx.Str("raw bytes"),
	[]byte{fx.ModString}, []byte{0xc3, 20, 19, 0x12}, []byte("hello world, hello!"),
	[]byte{fx.ModUInt}, fx.Len(1<<63),
	[]byte{fx.ModEOF},
)

// TestModuleValues reads module values of type 7 and module AUX records into records whose
// bytes are the file's, counts them per module, and writes them back byte for byte.
func TestModuleValues(t *testing.T) {
	id := fx.ModuleID("rdbgen-mt", 1)
	aux := fx.Cat([]byte{247}, fx.Len(id), []byte{fx.ModUInt}, fx.Len(record.ModuleAuxBefore), []byte{fx.ModString}, fx.Str("defs"), []byte{fx.ModEOF})
	m1 := fx.Record(7, "m1", fx.Len(id), body)
	m2 := fx.Expiring(4102444800000, fx.Record(7, "m2", fx.Len(id), []byte{fx.ModEOF}))
	file := fx.File(10, aux, m1, m2, fx.Record(0, "k", fx.Str("v")))
	var rec record.Recorder
	rd, err := decoder.NewReader(bytes.NewReader(file), decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.WriteTo(context.Background(), &rec); err != nil {
		t.Fatal(err)
	}
	want := []record.Record{
		{Key: []byte("m1"), Type: record.Module, ModuleID: id, Value: body},
		{Key: []byte("m2"), Type: record.Module, ModuleID: id, Value: []byte{0}, ExpireAtMS: 4102444800000},
		{Key: []byte("k"), Type: record.String, Value: []byte("v")},
	}
	if !reflect.DeepEqual(rec.Records, want) {
		t.Fatalf("records\n%+v\nwant\n%+v", rec.Records, want)
	}
	wantAux := []record.ModuleAux{{ModuleID: id, When: record.ModuleAuxBefore, Value: fx.Cat([]byte{fx.ModString}, fx.Str("defs"), []byte{0})}}
	if !reflect.DeepEqual(rec.ModuleAux, wantAux) {
		t.Fatalf("module AUX %+v, want %+v", rec.ModuleAux, wantAux)
	}
	st := rd.Stats()
	if st.Keys != 3 || st.Modules["rdbgen-mt"] != 2 || st.ModuleAux["rdbgen-mt"] != 1 || st.Types["module2"] != 2 {
		t.Fatalf("stats %+v", st)
	}

	// Written back for every RDB version that holds them: the same bytes, read again the
	// same records.
	for v := rdb.ModuleAux.Since(); v <= rdb.MaxVersion; v++ {
		var out bytes.Buffer
		w, err := rdbsink.NewWriter(&out, encoder.Options{RDBVersion: v, Target: "redis-8.4"})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteModuleAux(&rec.ModuleAux[0]); err != nil {
			t.Fatal(err)
		}
		if err := record.Records(rec.Records).WriteTo(context.Background(), w); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		for _, part := range [][]byte{aux, m1, m2} {
			if !bytes.Contains(out.Bytes(), part) {
				t.Errorf("RDB %d: the output lacks % x", v, part)
			}
		}
		var again record.Recorder
		rd, err := decoder.NewReader(&out, decoder.Options{})
		if err == nil {
			err = rd.WriteTo(context.Background(), &again)
		}
		if err != nil || !reflect.DeepEqual(again.Records, want) || !reflect.DeepEqual(again.ModuleAux, wantAux) {
			t.Errorf("RDB %d: read back %v\n%+v", v, err, again.Records)
		}
	}
}

// TestModuleRefused: type 6, an unknown opcode, a bad 'when' opcode and a value cut short
// are errors naming what is wrong, the key and the offset.
func TestModuleRefused(t *testing.T) {
	id := fx.ModuleID("MBbloom--", 4)
	tests := []struct {
		name string
		file []byte
		is   error
		want string
	}{
		{"type 6", fx.File(10, fx.Record(6, "bf", fx.Len(id), []byte{0})), decoder.ErrModule, `key "bf": decoder: module value of module type MBbloom-- in the pre-release format (type 6`},
		{"unknown opcode", fx.File(10, fx.Record(7, "bf", fx.Len(id), []byte{fx.ModUInt, 1, 9})), decoder.ErrCorrupt,
			`key "bf": decoder: corrupt: unknown module value opcode 9 at byte 26 in a value of module type MBbloom-- (known: 0 EOF, 1 SINT, 2 UINT, 3 FLOAT, 4 DOUBLE, 5 STRING)`},
		{"encoded length as opcode", fx.File(10, fx.Record(7, "bf", fx.Len(id), []byte{0xc0})), decoder.ErrCorrupt, "bad length encoding"},
		{"when opcode", fx.File(10, fx.Cat([]byte{247}, fx.Len(id), []byte{fx.ModSInt, 2, 0})), decoder.ErrCorrupt, `module AUX of "MBbloom--": the opcode before 'when' is 1, not UINT (2)`},
		{"value of module id 0", fx.File(10, fx.Record(7, "bf", fx.Len(0), []byte{0})), decoder.ErrCorrupt, `key "bf": decoder: corrupt: a module value of module id 0, which no module type has`},
		{"AUX of module id 0", fx.File(10, fx.Cat([]byte{247}, fx.Len(0), []byte{fx.ModUInt, 2, 0})), decoder.ErrCorrupt, `corrupt: module AUX data of module id 0, which no module type has`},
		{"LZF lengths", fx.File(10, fx.Record(7, "bf", fx.Len(id), []byte{fx.ModString, 0xc3, 0, 5})), decoder.ErrCorrupt, "lzf"},
		{"truncated", fx.File(10, fx.Record(7, "bf", fx.Len(id), []byte{fx.ModString, 40, 'a'})), decoder.ErrTruncated, `key "bf"`},
	}
	for _, tt := range tests {
		rd, err := decoder.NewReader(bytes.NewReader(tt.file), decoder.Options{})
		if err == nil {
			err = rd.WriteTo(context.Background(), record.Discard{})
		}
		var de *decoder.Error
		if !errors.Is(err, tt.is) || !errors.As(err, &de) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %v with %q", tt.name, err, tt.is, tt.want)
		}
	}
}

// TestModuleAuxRefusedBySink: a sink that cannot carry module AUX data stops the reading
// with its own error.
func TestModuleAuxRefusedBySink(t *testing.T) {
	rd, err := decoder.NewReader(bytes.NewReader(fx.ModuleFile()), decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = rd.WriteTo(context.Background(), refuseAux{})
	if !errors.Is(err, record.ErrModuleAuxUnsupported) || !strings.Contains(err.Error(), `"ft-index0"`) {
		t.Fatalf("got %v", err)
	}
}

type refuseAux struct {
	record.Discard
	record.RefuseModuleAux
}

func (refuseAux) WriteModuleAux(a *record.ModuleAux) error {
	return record.RefuseModuleAux{}.WriteModuleAux(a)
}

// FuzzModuleValue feeds the type-7 walker any bytes after a module id: it returns an error
// or a record, never panics; a record written back reads again as the same bytes.
func FuzzModuleValue(f *testing.F) {
	f.Add(body)
	f.Add([]byte{0})
	f.Add([]byte{fx.ModString, 0xc3, 3, 2, 1, 'a', 'b', 0})
	f.Add([]byte{fx.ModUInt, 0x81, 1, 2, 3, 4, 5, 6, 7, 8, 0})
	f.Add([]byte{fx.ModDouble, 1, 2, 3})
	id := fx.ModuleID("rdbgen-mt", 1)
	f.Fuzz(func(t *testing.T, data []byte) {
		file := fx.File(10, fx.Record(7, "m", fx.Len(id), data))
		rd, err := decoder.NewReader(bytes.NewReader(file), decoder.Options{BufferSize: 64 << 10})
		if err != nil {
			t.Fatal(err)
		}
		var rec record.Recorder
		if rd.WriteTo(context.Background(), &rec) != nil {
			return
		}
		// Bytes past the module value's EOF may read as further records: the value is the
		// first one.
		rec.Records = rec.Records[:1]
		r := rec.Records[0]
		if !bytes.HasPrefix(data, r.Value) || r.ModuleID != id {
			t.Fatalf("read % x from % x", r.Value, data)
		}
		var out bytes.Buffer
		w, err := rdbsink.NewWriter(&out, encoder.Options{Target: "redis-7.0"})
		if err != nil {
			t.Fatal(err)
		}
		if err := record.Records(rec.Records).WriteTo(context.Background(), w); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var again record.Recorder
		if rd, err = decoder.NewReader(&out, decoder.Options{}); err == nil {
			err = rd.WriteTo(context.Background(), &again)
		}
		if err != nil || !reflect.DeepEqual(again.Records, rec.Records) {
			t.Fatalf("written back: %v %+v", err, again.Records)
		}
	})
}
