package decoder_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// smallRecords are one small record of each type: the fuzz seeds stay short.
func smallRecords() []record.Record {
	var rs []record.Record
	for _, r := range sampleRecords() {
		if len(r.Members) > 12 || len(r.Value) > 100 {
			continue
		}
		rs = append(rs, r)
	}
	return rs
}

// FuzzReader feeds the reader damaged files: it must return an error or records, never
// panic, and never allocate by a length it has not checked (the fuzzer's memory limit
// would catch that).
func FuzzReader(f *testing.F) {
	for v := rdb.MinVersion; v <= rdb.MaxVersion; v++ {
		for _, compress := range []bool{false, true} {
			path := writeFile(f, smallRecords(), encoder.Options{Target: "redis-8.2", RDBVersion: v, DisableCompression: !compress})
			f.Add(mustRead(f, path))
		}
	}
	// Large members: LZF strings, plain encodings.
	long := []record.Record{
		{Key: []byte("long"), Type: record.String, Value: bytes.Repeat([]byte("abcd"), 40)},
		{Key: []byte("set"), Type: record.Set, Members: []record.Member{{Name: bytes.Repeat([]byte("m"), 100)}, {Name: []byte("n")}}},
	}
	f.Add(mustRead(f, writeFile(f, long, encoder.Options{Target: "redis-7.0"})))
	// The byte-level layouts of the formats the encoder does not write.
	f.Add(rdbFile("0012", cat([]byte{21}, rstr("s"), streamNode, streamMeta21, streamGroup, []byte{1}, streamPEL, consumer, activeTime, consumerPEL)))
	f.Add(rdbFile("0009", cat([]byte{15}, rstr("s"), streamNode, streamMeta21[:3], streamGroup, streamPEL, consumer, consumerPEL)))
	f.Add(rdbFile("0012", cat([]byte{25}, rstr("h"), le64(4102444800000), blob(lp("f", "v", "#0", "g", "w", "#5")))))
	f.Add(rdbFile("0012", cat([]byte{24}, rstr("h"), le64(3000), []byte{2, 0}, rstr("a"), rstr("1"), []byte{1}, rstr("b"), rstr("2"))))
	// The newer formats: Valkey 9's slot import and hash with field TTLs, Redis 8.6-8.10's
	// refused types and opcodes.
	f.Add(rdbfixture.Valkey(80, rdbfixture.SlotImport("job", [2]uint64{0, 100}),
		rdbfixture.Record(22, "vh", rdbfixture.ValkeyHash2([]string{"a", "1", "b", "2"}, []int64{-1, 4102444800000}))))
	f.Add(rdbfixture.File(13, rdbfixture.Record(26, "x", []byte{0}), []byte{243, 0}))
	f.Add(rdbfixture.File(15, []byte{242, 0}, rdbfixture.Record(30, "t", []byte{0})))
	f.Add(rdbFile("0003", cat([]byte{9}, rstr("zm"), blob(unhex("02 03 666f6f 03 00 626172 05 68656c6c6f 05 02 776f726c64 0000 ff")))))
	f.Add(rdbFile("0009", cat([]byte{12}, rstr("zz"), blob(zl("a", "1.5", "b", "#2"))), cat([]byte{14}, rstr("q"), []byte{2}, blob(zl("a", "b")), blob(zl("#7")))))
	f.Add(rdbFile("0010", cat([]byte{18}, rstr("q"), []byte{2}, []byte{2}, blob(lp("a", "#5")), []byte{1}, rstr("plain"))))
	// Expiries Redis reads its own way, a db in two sections, repeated members and keys.
	f.Add(rdbFile("0010", expMS(0), aux("x", "y"), str("k", "v"), resizeDB(9, 1), selectDB(1), str("k", "v"),
		selectDB(0), plainSet("s", "a", "a"), str("k", "w")))
	// A library in Redis 7.0 RC's layout (opcode 246); Redis Enterprise's per-key opcodes.
	f.Add(rdbFile("0010", cat([]byte{0xf6}, rstr("lib"), rstr("LUA"), []byte{1}, rstr("d"), rstr("redis.register_function('f', function() return 1 end)"))))
	f.Add(rdbFile("0012", cat([]byte{107, 0x40, 0x43}, str("k", "v"), []byte{121, 5}, str("j", "w"))))
	// Quicklists past 256 bytes are read twice; repeated keys and members are looked for.
	opts := decoder.Options{BufferSize: 64 << 10, MaxHeldBytes: 256, OnDuplicate: record.DupError}
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := decoder.NewReader(bytes.NewReader(data), opts)
		if err != nil {
			return
		}
		// nopSink, not a recorder: a Collector reserves room by the declared counts.
		err = rd.WriteTo(context.Background(), &nopSink{})
		var de *decoder.Error
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("error %v is not a *decoder.Error", err)
		}
	})
}

// FuzzReaderListpack mutates the listpack of a field-TTL hash and of a listpack set, where
// the entry encodings are densest.
func FuzzReaderListpack(f *testing.F) {
	f.Add(lp("f", "v", "#0", "g", "w", "#5"), byte(25))
	f.Add(lp("x", "#300", "y"), byte(20))
	f.Add(lp("a", "#1", "b", "#2"), byte(17))
	f.Fuzz(func(t *testing.T, b []byte, typ byte) {
		if typ != 16 && typ != 17 && typ != 20 && typ != 25 {
			return
		}
		obj := cat([]byte{typ}, rstr("k"))
		if typ == 25 {
			obj = append(obj, le64(0)...)
		}
		obj = append(obj, 0x80)
		obj = append(obj, byte(len(b)>>24), byte(len(b)>>16), byte(len(b)>>8), byte(len(b)))
		obj = append(obj, b...)
		rd, err := decoder.NewReader(bytes.NewReader(rdbFile("0012", obj)), decoder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_ = rd.WriteTo(context.Background(), &nopSink{})
	})
}
