package decoder_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdb/internal/crc64"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// Byte-level tests of the formats Redis 7.0 cannot write: the annotated bytes of
// /work/shared/notes/rdb-streams-field-ttl.md (streams of types 21, 19 and 15, field TTLs
// of types 22 to 25) and layouts derived from the Redis sources (zipmap, ziplists).

func unhex(s string) []byte {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		panic(err)
	}
	return b
}

// rdbFile wraps objects (type byte, key, value) in a file of the given version with a
// checksum, database 0.
func rdbFile(version string, objects ...[]byte) []byte {
	b := []byte("REDIS" + version)
	b = append(b, 0xfe, 0x00)
	for _, o := range objects {
		b = append(b, o...)
	}
	b = append(b, 0xff)
	if version >= "0005" {
		b = binary.LittleEndian.AppendUint64(b, crc64.Checksum(b))
	}
	return b
}

// rstr is an RDB string of fewer than 64 bytes.
func rstr(s string) []byte { return append([]byte{byte(len(s))}, s...) }

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// The stream of §1.5: XADD s 1-1 a 1 b x, 2-1 a 2 b y, 3-1 a 3 b z; group g read 1-1 by c.
var (
	streamNode = unhex(`01 1000 0000 0000 0000 0100 0000 0000 0000 01
		3c 3c00 0000 1800 0301 0001 0201 8161 0281 6202 0001 0201 0001 0001 0101 8178 0205
		0102 0101 0100 0102 0181 7902 0501 0201 0201 0001 0301 817a 0205 01ff`)
	streamMeta21 = unhex(`03 0301 0101 0000 03`)
	streamGroup  = unhex(`01 0167 0101`)
	streamPEL    = unhex(`01 0000 0000 0000 0001 0000 0000 0000 0001 e4c5 d031 a201 0000 01`)
	consumer     = unhex(`01 0163 e4c5 d031 a201 0000`)
	activeTime   = unhex(`e4c5 d031 a201 0000`)
	consumerPEL  = unhex(`01 0000 0000 0000 0001 0000 0000 0000 0001`)
	streamWant   = `db0 "s" stream exp=0 1-1["a" "1" "b" "x"] 2-1["a" "2" "b" "y"] 3-1["a" "3" "b" "z"] group "g" last=1-1 pel=1-1/1, consumer "c" [1-1]`
)

// lp builds a listpack of short strings and small integers (as decimal strings prefixed "#").
func lp(entries ...string) []byte {
	b := []byte{0, 0, 0, 0, 0, 0}
	for _, e := range entries {
		if strings.HasPrefix(e, "#") {
			var v int
			for _, c := range e[1:] {
				v = v*10 + int(c-'0')
			}
			if v < 128 {
				b = append(b, byte(v), 1)
			} else {
				b = append(b, 0xf4)
				b = binary.LittleEndian.AppendUint64(b, uint64(v))
				b = append(b, 9)
			}
			continue
		}
		b = append(b, 0x80|byte(len(e)))
		b = append(b, e...)
		b = append(b, byte(1+len(e)))
	}
	b = append(b, 0xff)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	binary.LittleEndian.PutUint16(b[4:], uint16(len(entries)))
	return b
}

// zl builds a ziplist of short strings and integers (prefixed "#", -128 to 127 or small
// immediates 0 to 12 or int16).
func zl(entries ...string) []byte {
	b := make([]byte, 10)
	prev := 0
	for _, e := range entries {
		start := len(b)
		b = append(b, byte(prev))
		if strings.HasPrefix(e, "#") {
			neg := strings.HasPrefix(e, "#-")
			var v int
			for _, c := range strings.TrimPrefix(e[1:], "-") {
				v = v*10 + int(c-'0')
			}
			if neg {
				v = -v
			}
			switch {
			case v >= 0 && v <= 12:
				b = append(b, 0xf1+byte(v))
			case v >= -128 && v <= 127:
				b = append(b, 0xfe, byte(int8(v)))
			default:
				b = append(b, 0xc0, byte(v), byte(v>>8))
			}
		} else {
			b = append(b, byte(len(e)))
			b = append(b, e...)
		}
		prev = len(b) - start
	}
	b = append(b, 0xff)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-1-prev))
	binary.LittleEndian.PutUint16(b[8:], uint16(len(entries)))
	return b
}

// blob wraps a compact encoding as an RDB string.
func blob(b []byte) []byte {
	if len(b) < 64 {
		return append([]byte{byte(len(b))}, b...)
	}
	return append([]byte{0x40 | byte(len(b)>>8), byte(len(b))}, b...)
}

func TestReadBytes(t *testing.T) {
	ttl := uint64(4102444800000)
	lpTTL := unhex(`2d 2d00 0000 0900 8266 3203 8276 3203 f400 d8c3 2cbb 0300 0009 8266 3103 8276 3103 0001 8266 3303 8276 3303 0001 ff`)
	cases := []struct {
		name    string
		version string
		objects [][]byte
		want    []string
	}{
		{"stream type 21", "0012",
			[][]byte{cat([]byte{21}, rstr("s"), streamNode, streamMeta21, streamGroup, []byte{1}, streamPEL, consumer, activeTime, consumerPEL)},
			[]string{streamWant}},
		{"stream type 19", "0010",
			[][]byte{cat([]byte{19}, rstr("s"), streamNode, streamMeta21, streamGroup, []byte{1}, streamPEL, consumer, consumerPEL)},
			[]string{streamWant}},
		{"stream type 15", "0009",
			[][]byte{cat([]byte{15}, rstr("s"), streamNode, streamMeta21[:3], streamGroup, streamPEL, consumer, consumerPEL)},
			[]string{streamWant}},
		{"hash listpack with field TTLs, type 25", "0012",
			[][]byte{cat([]byte{25}, rstr("h"), le64(ttl), lpTTL)},
			[]string{`db0 "h" hash exp=0 "f1"="v1" "f2"="v2"@4102444800000 "f3"="v3"`}},
		{"pre-release type 23", "0012",
			[][]byte{cat([]byte{23}, rstr("h"), lpTTL)},
			[]string{`db0 "h" hash exp=0 "f1"="v1" "f2"="v2"@4102444800000 "f3"="v3"`}},
		{"hash with field TTLs, type 24", "0012",
			[][]byte{cat([]byte{24}, rstr("hb"), le64(ttl), []byte{3},
				[]byte{0}, rstr("b"), rstr("2"), []byte{0x43, 0xe9}, rstr("c"), rstr("3"), []byte{1}, rstr("a"), rstr("1"))},
			[]string{`db0 "hb" hash exp=0 "a"="1"@4102444800000 "b"="2" "c"="3"@4102444801000`}},
		{"pre-release type 22", "0012",
			[][]byte{cat([]byte{22}, rstr("hb"), []byte{2}, []byte{0}, rstr("b"), rstr("2"),
				[]byte{0x81}, binary.BigEndian.AppendUint64(nil, ttl), rstr("a"), rstr("1"))},
			[]string{`db0 "hb" hash exp=0 "a"="1"@4102444800000 "b"="2"`}},
		{"zipmap", "0003",
			[][]byte{cat([]byte{9}, rstr("zm"), blob(unhex("02 03 666f6f 03 00 626172 05 68656c6c6f 05 02 776f726c64 0000 ff")))},
			[]string{`db0 "zm" hash exp=0 "foo"="bar" "hello"="world"`}},
		{"ziplist list, expiry in seconds", "0006",
			[][]byte{cat([]byte{0xfd}, []byte{0x80, 0x96, 0x98, 0x00}, []byte{10}, rstr("zl"), blob(zl("abc", "#-5", "#2", "#1000", "#12")))},
			[]string{`db0 "zl" list exp=10000000000 "abc" "-5" "2" "1000" "12"`}},
		{"ziplist zset and hash", "0009",
			[][]byte{
				cat([]byte{12}, rstr("zz"), blob(zl("a", "1.5", "b", "#2"))),
				cat([]byte{13}, rstr("zh"), blob(zl("f", "v", "n", "#-100"))),
			},
			[]string{`db0 "zz" zset exp=0 "a":1.5 "b":2`, `db0 "zh" hash exp=0 "f"="v" "n"="-100"`}},
		{"quicklist of ziplists", "0008",
			[][]byte{cat([]byte{14}, rstr("q"), []byte{2}, blob(zl("a", "b")), blob(zl("#7")))},
			[]string{`db0 "q" list exp=0 "a" "b" "7"`}},
		{"quicklist 2 with a plain node", "0010",
			[][]byte{cat([]byte{18}, rstr("q"), []byte{3}, []byte{2}, blob(lp("a", "#5")), []byte{1}, rstr("plain"), []byte{2}, blob(lp("z")))},
			[]string{`db0 "q" list exp=0 "a" "5" "plain" "z"`}},
		{"listpack set", "0011",
			[][]byte{cat([]byte{20}, rstr("ls"), blob(lp("x", "#300", "y")))},
			[]string{`db0 "ls" set exp=0 "300" "x" "y"`}},
		{"ascii scores, rdb 3, no checksum", "0003",
			[][]byte{cat([]byte{3}, rstr("z"), []byte{3}, rstr("a"), rstr("1.5"), rstr("b"), []byte{254}, rstr("c"), []byte{255})},
			[]string{`db0 "z" zset exp=0 "a":1.5 "b":+Inf "c":-Inf`}},
		{"opcodes: aux, resizedb, idle, freq, module aux, function, slot info", "0012",
			[][]byte{
				cat([]byte{0xfa}, rstr("redis-ver"), rstr("7.4.1")),
				[]byte{0xfb, 1, 0},
				cat([]byte{0xf7}, []byte{0x81}, binary.BigEndian.AppendUint64(nil, auxModuleID(t)), []byte{2, 2}, []byte{2, 7, 5}, rstr("m"), []byte{4}, le64(0), []byte{0}),
				cat([]byte{0xf5}, rstr("#!lua name=x\n")),
				[]byte{0xf4, 1, 1, 0},
				cat([]byte{0xf8, 0x05, 0xf9, 0x03, 0}, rstr("k"), rstr("v")),
			},
			[]string{`db0 "k" string exp=0 "v"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorder
			rd, err := decoder.NewReader(bytes.NewReader(rdbFile(tc.version, tc.objects...)), decoder.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := rd.WriteTo(context.Background(), &rec); err != nil {
				t.Fatal(err)
			}
			diff(t, canonAll(rec.Records), sortStrings(tc.want))
		})
	}
}

// auxModuleID returns the module id of "mymodtype" encoding version 1.
func auxModuleID(t *testing.T) uint64 {
	id, err := record.ModuleID("mymodtype", 1)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// minSink records a header's smallest field expiry, and whether it says the hash has field
// TTLs.
type minSink struct {
	recorder
	min  int64
	ttls bool
}

func (m *minSink) Begin(h *record.Header) error {
	m.min, m.ttls = h.MinFieldExpireAtMS, h.HasFieldTTLs()
	return m.recorder.Begin(h)
}

func TestFieldTTLMinimum(t *testing.T) {
	for _, obj := range [][]byte{
		cat([]byte{22}, rstr("h"), []byte{2}, []byte{0x81}, binary.BigEndian.AppendUint64(nil, 5000), rstr("a"), rstr("1"), []byte{0x80, 0, 0, 0x0b, 0xb8}, rstr("b"), rstr("2")),
		cat([]byte{24}, rstr("h"), le64(3000), []byte{2}, []byte{0x80, 0, 0, 0x07, 0xd1}, rstr("a"), rstr("1"), []byte{1}, rstr("b"), rstr("2")),
	} {
		var s minSink
		rd, err := decoder.NewReader(bytes.NewReader(rdbFile("0012", obj)), decoder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := rd.WriteTo(context.Background(), &s); err != nil {
			t.Fatal(err)
		}
		if s.min != 3000 {
			t.Errorf("type %d: min field expiry %d, want 3000 (%v)", obj[0], s.min, canonAll(s.Records))
		}
	}
}

// TestFieldTTLsKept: a hash of a dump whose fields may expire but none does (type 25 with a
// smallest expiry of 0, as Redis 7.4 writes one after HPERSIST) opens with FieldTTLs, and
// a Writer of RDB 12 writes it back byte for byte, as convert did before the Sink had
// headers.
func TestFieldTTLsKept(t *testing.T) {
	obj := cat([]byte{25}, rstr("h"), le64(0), blob(lp("a", "#1", "#0", "b", "#2", "#0")))
	rd, err := decoder.NewReader(bytes.NewReader(rdbFile("0012", obj)), decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s minSink
	var out bytes.Buffer
	w, err := rdbsink.NewWriter(&out, encoder.Options{RDBVersion: 12, DisableCompression: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.WriteTo(context.Background(), record.Tee(&s, w)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if s.min != 0 || !s.ttls {
		t.Errorf("header: smallest field expiry %d, field TTLs %t; want 0, true", s.min, s.ttls)
	}
	if !bytes.Contains(out.Bytes(), obj) {
		t.Errorf("written again as\n%x\nwant it to hold\n%x", out.Bytes(), obj)
	}
}

func TestReadErrors(t *testing.T) {
	good := rdbFile("0010", cat([]byte{0}, rstr("k"), rstr("v")))
	flipped := bytes.Clone(good)
	flipped[len(flipped)-1] ^= 1
	cases := []struct {
		name   string
		file   []byte
		target error
		text   string
	}{
		{"not rdb", []byte("HELLO0009xxxx"), decoder.ErrNotRDB, "not REDIS"},
		{"short", []byte("RED"), decoder.ErrNotRDB, "9-byte header"},
		{"version 16", []byte("REDIS0016\xff"), decoder.ErrVersion, "16"},
		{"checksum", flipped, decoder.ErrChecksum, "checksum"},
		{"truncated", good[:len(good)-10], decoder.ErrTruncated, `key "k"`},
		{"module type 6", rdbFile("0010", cat([]byte{6}, rstr("mk"), []byte{0x81}, binary.BigEndian.AppendUint64(nil, 0x3ae6f8e1aa0b0c01))), decoder.ErrModule, `key "mk"`},
		{"bad type", rdbFile("0010", cat([]byte{30}, rstr("k"))), decoder.ErrCorrupt, "unknown value type 30"},
		{"bad listpack", rdbFile("0010", cat([]byte{20}, rstr("k"), rstr("xxxxxxxx"))), decoder.ErrCorrupt, "byte 23"},
		{"bad ziplist count", rdbFile("0010", cat([]byte{13}, rstr("k"), blob(zl("a", "b", "c")))), decoder.ErrCorrupt, "multiple of 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rd, err := decoder.NewReader(bytes.NewReader(tc.file), decoder.Options{})
			if err == nil {
				err = rd.WriteTo(context.Background(), &recorder{})
			}
			if !errors.Is(err, tc.target) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("got %v, want %v containing %q", err, tc.target, tc.text)
			}
			var de *decoder.Error
			if !errors.As(err, &de) {
				t.Fatalf("%v is not a *decoder.Error", err)
			}
		})
	}
}

// TestTruncatedAnywhere cuts a file of every type at every byte: always an error, never a
// panic.
func TestTruncatedAnywhere(t *testing.T) {
	path := writeFile(t, sampleRecords()[:13], encoder.Options{Target: "redis-7.2"})
	full := mustRead(t, path)
	for n := 0; n < len(full)-1; n += 1 + n/64 {
		rd, err := decoder.NewReader(bytes.NewReader(full[:n]), decoder.Options{})
		if err == nil {
			err = rd.WriteTo(context.Background(), &recorder{})
		}
		if err == nil {
			t.Fatalf("%d of %d bytes read without an error", n, len(full))
		}
	}
}

var _ record.Sink = (*minSink)(nil)

func TestCancelled(t *testing.T) {
	path := writeFile(t, strsRecords(10000), encoder.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (decoder.File{Path: path}).WriteTo(ctx, &recorder{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	// Inside one large collection too.
	ms := make([]record.Member, 200_000)
	for i := range ms {
		ms[i].Name = fmt.Appendf(nil, "m%d", i)
	}
	path = writeFile(t, []record.Record{{Key: []byte("big"), Type: record.Set, Members: ms}}, encoder.Options{})
	var calls int
	src := decoder.File{Path: path, Options: decoder.Options{Progress: func(record.Progress) { calls++ }}}
	if err := src.WriteTo(ctx, &nopSink{}); !errors.Is(err, context.Canceled) || calls != 1 {
		t.Fatalf("got %v after %d progress calls, want context.Canceled after 1", err, calls)
	}
}

func TestFileRereads(t *testing.T) {
	path := writeFile(t, sampleRecords(), encoder.Options{})
	src := decoder.File{Path: path}
	var a, b recorder
	var progress []record.Progress
	src.Options.Progress = func(p record.Progress) { progress = append(progress, p) }
	if err := src.WriteTo(context.Background(), &a); err != nil {
		t.Fatal(err)
	}
	if err := src.WriteTo(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	diff(t, canonAll(a.Records), canonAll(b.Records))
	if len(progress) != 2 || progress[0].Keys != uint64(len(sampleRecords())) || progress[0].Bytes != int64(len(mustRead(t, path))) {
		t.Fatalf("progress %+v", progress)
	}
}

func strsRecords(n int) []record.Record {
	rs := make([]record.Record, n)
	for i := range rs {
		rs[i] = record.Record{Key: []byte("k" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + fmt.Sprint(i)), Type: record.String, Value: []byte("v")}
	}
	return rs
}
