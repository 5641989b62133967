package decoder_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"testing"

	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// item is a string of the test module's items: the STRING opcode and s.
func item(s string) []byte { return append([]byte{fx.ModString}, fx.Str(s)...) }

// TestModuleDumpFile reads testdata/modules/modules.rdb, which redis-server 7.0.15 wrote
// with rdbgen's test module (commands.txt): every module value, byte for byte as the
// module's rdb_save writes it (a count, then per item its kind and value; RM_SaveSigned
// writes a UINT), the LZF-compressed string left compressed, the AUX data before and after
// the keys, and the keys beside them.
func TestModuleDumpFile(t *testing.T) {
	rd, err := decoder.File{Path: "testdata/modules/modules.rdb"}.Read(context.Background(), &record.Recorder{})
	if err != nil {
		t.Fatal(err)
	}
	var rec record.Recorder
	if err := (decoder.File{Path: "testdata/modules/modules.rdb"}).WriteTo(context.Background(), &rec); err != nil {
		t.Fatal(err)
	}
	id, err := record.ModuleID("rdbgen-mt", 1)
	if err != nil {
		t.Fatal(err)
	}
	f32 := binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5))
	f64 := binary.LittleEndian.AppendUint64(nil, math.Float64bits(3.141592653589793))
	minus42 := -42
	all := fx.Cat([]byte{fx.ModUInt}, fx.Len(5),
		item("s"), []byte{fx.ModUInt}, fx.Len(uint64(minus42)),
		item("u"), []byte{fx.ModUInt}, fx.Len(math.MaxUint64),
		item("f"), []byte{fx.ModFloat}, f32,
		item("d"), []byte{fx.ModDouble}, f64,
		item("b"), item("hello"),
		[]byte{fx.ModEOF})
	want := map[string]record.Record{
		"0 m:all":   {Key: []byte("m:all"), Type: record.Module, ModuleID: id, Value: all, ExpireAtMS: 4102444800000},
		"0 m:none":  {Key: []byte("m:none"), Type: record.Module, ModuleID: id, Value: fx.Cat([]byte{fx.ModUInt}, fx.Len(0), []byte{fx.ModEOF})},
		"0 plain:0": {Key: []byte("plain:0"), Type: record.String, Value: []byte("v")},
		"0 h":       {Key: []byte("h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("1")}}},
		"1 plain:1": {DB: 1, Key: []byte("plain:1"), Type: record.String, Value: []byte("v")},
		"1 m:db1": {DB: 1, Key: []byte("m:db1"), Type: record.Module, ModuleID: id, Value: fx.Cat([]byte{fx.ModUInt}, fx.Len(2),
			item("u"), []byte{fx.ModUInt}, fx.Len(1), item("b"), item(""), []byte{fx.ModEOF})},
	}
	// m:lzf: 2 items, a 512-byte string item LZF-compressed (0xc3, compressed length,
	// length 512), then "s" 7.
	lzfHead := fx.Cat([]byte{fx.ModUInt}, fx.Len(2), item("b"), []byte{fx.ModString, 0xc3})
	lzfTail := fx.Cat(item("s"), []byte{fx.ModUInt}, fx.Len(7), []byte{fx.ModEOF})
	got := map[string]bool{}
	for _, r := range rec.Records {
		name := fmt.Sprintf("%d %s", r.DB, r.Key)
		got[name] = true
		if name == "0 m:lzf" {
			v := r.Value
			ok := r.Type == record.Module && r.ModuleID == id && bytes.HasPrefix(v, lzfHead) && bytes.HasSuffix(v, lzfTail)
			if ok {
				rest := v[len(lzfHead):]
				// compressed length (one byte, below 64), then 512 as a 14-bit length.
				ok = rest[0] < 64 && rest[1] == 0x42 && rest[2] == 0x00 && len(v) == len(lzfHead)+3+int(rest[0])+len(lzfTail)
			}
			if !ok {
				t.Errorf("m:lzf: %+v % x", r, v)
			}
			continue
		}
		w, ok := want[name]
		if !ok || !reflect.DeepEqual(r, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, r, w)
		}
	}
	if len(got) != 7 || !got["0 m:lzf"] {
		t.Errorf("keys %v, want %d and 0 m:lzf", got, len(want)+1)
	}
	wantAux := []record.ModuleAux{
		{ModuleID: id, When: record.ModuleAuxBefore, Value: fx.Cat(item("index definitions"), []byte{fx.ModEOF})},
		{ModuleID: id, When: record.ModuleAuxAfter, Value: fx.Cat(item("trailer data"), []byte{fx.ModEOF})},
	}
	if !reflect.DeepEqual(rec.ModuleAux, wantAux) {
		t.Errorf("module AUX\n%+v\nwant\n%+v", rec.ModuleAux, wantAux)
	}
	if st := rd.Stats(); st.Modules["rdbgen-mt"] != 4 || st.ModuleAux["rdbgen-mt"] != 2 {
		t.Errorf("stats: modules %v, module AUX %v", st.Modules, st.ModuleAux)
	}
}
