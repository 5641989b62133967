package resp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

// lines returns the commands that rec turns into under o, one line each, arguments
// separated by spaces; a record of Type "" in recs means BeginDB(DB).
func lines(t *testing.T, o Options, recs ...record.Record) (string, error) {
	t.Helper()
	var out []string
	c, err := NewCommands(func(cmd *Command) error {
		var args []string
		for _, a := range cmd.Args {
			args = append(args, string(a))
		}
		line := strings.Join(args, " ")
		if cmd.Last {
			line += " ."
		}
		out = append(out, line)
		return nil
	}, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Key == nil {
			err = c.BeginDB(r.DB, record.Counts{})
		} else {
			err = r.WriteTo(c)
		}
		if err != nil {
			return strings.Join(out, "\n"), err
		}
	}
	return strings.Join(out, "\n"), nil
}

func members(names ...string) []record.Member {
	var ms []record.Member
	for _, n := range names {
		ms = append(ms, record.Member{Name: []byte(n)})
	}
	return ms
}

func TestCommands(t *testing.T) {
	v := func(s string) Version { v, _ := ParseVersion(s); return v }
	fixed := func() time.Time { return time.UnixMilli(1_000_000) }
	str := func(k, val string, exp int64) record.Record {
		return record.Record{Key: []byte(k), Type: record.String, Value: []byte(val), ExpireAtMS: exp}
	}
	hash := record.Record{Key: []byte("h"), Type: record.Hash, Members: []record.Member{
		{Name: []byte("f1"), Value: []byte("v1")}, {Name: []byte("f2"), Value: []byte("v2")}, {Name: []byte("f3"), Value: []byte("v3")}}}
	tests := []struct {
		name string
		o    Options
		recs []record.Record
		want string
		err  error
	}{
		{"select and string", Options{}, []record.Record{{DB: 3}, str("k", "v", 0)}, "SELECT 3\nSET k v .", nil},
		{"string pxat", Options{}, []record.Record{str("k", "v", 1_500_000)}, "SET k v PXAT 1500000 .", nil},
		{"string pxat 6.2", Options{Server: v("6.2")}, []record.Record{str("k", "v", 1_500_000)}, "SET k v PXAT 1500000 .", nil},
		{"string before 6.2", Options{Server: v("6.0")}, []record.Record{str("k", "v", 1_500_000)}, "SET k v\nPEXPIREAT k 1500000 .", nil},
		{"string px", Options{Expiry: ExpiryRelative, Now: fixed}, []record.Record{str("k", "v", 1_500_000)}, "SET k v PX 500000 .", nil},
		{"string px past", Options{Expiry: ExpiryRelative, Now: fixed}, []record.Record{str("k", "v", 5)}, "SET k v PX 1 .", nil},
		{"empty string", Options{}, []record.Record{str("k", "", 0)}, "SET k  .", nil},
		{"hash", Options{}, []record.Record{hash}, "DEL h\nHSET h f1 v1 f2 v2 f3 v3 .", nil},
		{"hash split by members", Options{MaxMembers: 2}, []record.Record{hash}, "DEL h\nHSET h f1 v1 f2 v2\nHSET h f3 v3 .", nil},
		{"hash split by bytes", Options{MaxBytes: 4}, []record.Record{hash}, "DEL h\nHSET h f1 v1\nHSET h f2 v2\nHSET h f3 v3 .", nil},
		{"one member over the bytes", Options{MaxBytes: 1}, []record.Record{{Key: []byte("s"), Type: record.Set, Members: members("abc")}}, "DEL s\nSADD s abc .", nil},
		{"hmset before 4.0", Options{Server: v("3.2"), MaxMembers: 2}, []record.Record{hash}, "DEL h\nHMSET h f1 v1 f2 v2\nHMSET h f3 v3 .", nil},
		{"list with expiry", Options{}, []record.Record{{Key: []byte("l"), Type: record.List, Members: members("a", "b", "a"), ExpireAtMS: 7}}, "DEL l\nRPUSH l a b a\nPEXPIREAT l 7 .", nil},
		{"set pexpire", Options{Expiry: ExpiryRelative, Now: fixed}, []record.Record{{Key: []byte("s"), Type: record.Set, Members: members("x"), ExpireAtMS: 1_000_010}}, "DEL s\nSADD s x\nPEXPIRE s 10 .", nil},
		{"zset scores", Options{Server: v("6.2")}, []record.Record{{Key: []byte("z"), Type: record.ZSet, Members: []record.Member{
			{Name: []byte("a"), Score: math.Inf(-1)}, {Name: []byte("b"), Score: 0.1}, {Name: []byte("c"), Score: -2.5e-300},
			{Name: []byte("d"), Score: 1e21}, {Name: []byte("e"), Score: math.Inf(1)}, {Name: []byte("f"), Score: math.Copysign(0, -1)}}}},
			"DEL z\nZADD z -inf a 0.1 b -2.5e-300 c 1e+21 d +inf e -0 f .", nil},
		{"zset nan", Options{}, []record.Record{{Key: []byte("z"), Type: record.ZSet, Members: []record.Member{{Name: []byte("a"), Score: math.NaN()}}}}, "DEL z", record.ErrNaNScore},
		{"empty collection", Options{}, []record.Record{{Key: []byte("s"), Type: record.Set}}, "DEL s", record.ErrEmpty},
		{"field ttl 7.4", Options{MaxMembers: 2}, []record.Record{{Key: []byte("h"), Type: record.Hash, ExpireAtMS: 99, Members: []record.Member{
			{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: 50}, {Name: []byte("b"), Value: []byte("2"), ExpireAtMS: 50},
			{Name: []byte("c"), Value: []byte("3")}, {Name: []byte("d"), Value: []byte("4"), ExpireAtMS: 60}}}},
			"DEL h\nHSET h a 1 b 2\nHPEXPIREAT h 50 FIELDS 2 a b\nHSET h c 3 d 4\nHPEXPIREAT h 60 FIELDS 1 d\nPEXPIREAT h 99 .", nil},
		{"field ttl last", Options{}, []record.Record{{Key: []byte("h"), Type: record.Hash, Members: []record.Member{
			{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: 50}, {Name: []byte("b"), Value: []byte("2"), ExpireAtMS: 70}}}},
			"DEL h\nHSET h a 1 b 2\nHPEXPIREAT h 50 FIELDS 1 a\nHPEXPIREAT h 70 FIELDS 1 b .", nil},
		{"field ttl 7.0", Options{Server: v("7.0")}, []record.Record{{Key: []byte("h"), Type: record.Hash, Members: []record.Member{
			{Name: []byte("a"), Value: []byte("1"), ExpireAtMS: 50}}}}, "", ErrServerTooOld},
		{"stream", Options{}, []record.Record{{Key: []byte("x"), Type: record.Stream, ExpireAtMS: 9,
			Members: []record.Member{{ID: record.StreamID{Ms: 1, Seq: 0}, Fields: [][]byte{[]byte("f"), []byte("v")}}, {ID: record.StreamID{Ms: 2, Seq: 5}, Fields: [][]byte{[]byte("a"), []byte("1"), []byte("b"), []byte("2")}}},
			Stream: record.StreamTail{Meta: record.StreamMeta{LastID: record.StreamID{Ms: 3}, EntriesAdded: 4, MaxDeletedID: record.StreamID{Ms: 2, Seq: 9}}, Groups: []record.StreamGroup{{Name: []byte("g"), LastID: record.StreamID{Ms: 2, Seq: 5}, EntriesRead: 2,
				Pending:   []record.StreamPending{{ID: record.StreamID{Ms: 1}, DeliveryTimeMS: 100, DeliveryCount: 2}, {ID: record.StreamID{Ms: 2, Seq: 5}, DeliveryTimeMS: 100, DeliveryCount: 2}},
				Consumers: []record.StreamConsumer{{Name: []byte("alice"), Pending: []record.StreamID{{Ms: 1}, {Ms: 2, Seq: 5}}}, {Name: []byte("bob")}}}}}}},
			"DEL x\nXADD x 1-0 f v\nXADD x 2-5 a 1 b 2\nXSETID x 3-0 ENTRIESADDED 4 MAXDELETEDID 2-9\nXGROUP CREATE x g 2-5 ENTRIESREAD 2\n" +
				"XGROUP CREATECONSUMER x g alice\nXCLAIM x g alice 0 1-0 2-5 TIME 100 RETRYCOUNT 2 FORCE JUSTID\nXGROUP CREATECONSUMER x g bob\nPEXPIREAT x 9 .", nil},
		{"stream 6.2", Options{Server: v("6.2")}, []record.Record{{Key: []byte("x"), Type: record.Stream,
			Members: []record.Member{{ID: record.StreamID{Ms: 1, Seq: 0}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
			Stream:  record.StreamTail{Groups: []record.StreamGroup{{Name: []byte("g"), EntriesRead: 1}}}}},
			"DEL x\nXADD x 1-0 f v\nXSETID x 1-0\nXGROUP CREATE x g 0-0 .", nil},
		{"empty stream", Options{}, []record.Record{{Key: []byte("x"), Type: record.Stream, Stream: record.StreamTail{Meta: record.StreamMeta{LastID: record.StreamID{Ms: 5}, EntriesAdded: 3}}}},
			"DEL x\nXADD x MAXLEN 0 5-0 f v\nXSETID x 5-0 ENTRIESADDED 3 MAXDELETEDID 0-0 .", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lines(t, tt.o, tt.recs...)
			if !errors.Is(err, tt.err) {
				t.Fatalf("error %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestWriterBytes(t *testing.T) {
	var b bytes.Buffer
	w, err := NewWriter(&b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.BeginDB(0, record.Counts{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(&record.Header{Key: []byte("k"), Type: record.String, Value: []byte("v\r\n")}); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 0 {
		t.Fatalf("wrote %q before Close", b.String())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nv\r\n\r\n"
	if b.String() != want || w.Count() != 2 {
		t.Fatalf("got %q (%d commands), want %q", b.String(), w.Count(), want)
	}
}

func TestStickyErrors(t *testing.T) {
	w, err := NewWriter(new(bytes.Buffer), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(&record.Member{Name: []byte("m")}); err == nil {
		t.Fatal("Add with no open key succeeded")
	}
	if err := w.Begin(&record.Header{Key: []byte("k"), Type: record.String, Value: []byte("v")}); err == nil || w.Close() == nil {
		t.Fatal("the first error did not stick")
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		o   Options
		ok  bool
		ver string
	}{
		{Options{}, true, ""},
		{Options{Expiry: "ex"}, false, ""},
		{Options{MaxMembers: -1}, false, ""},
		{Options{MaxBytes: -1}, false, ""},
	}
	for _, tt := range tests {
		_, err := NewWriter(new(bytes.Buffer), tt.o)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrInvalidOption)) {
			t.Errorf("%+v: %v", tt.o, err)
		}
	}
	if _, err := NewCommands(nil, Options{}); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("nil emit: %v", err)
	}
	for _, s := range []string{"7.0", "7.0.15", "3.2.1", "10.12"} {
		if _, err := ParseVersion(s); err != nil {
			t.Errorf("ParseVersion(%q): %v", s, err)
		}
	}
	for _, s := range []string{"", "7", "x.y", "-1.0", "0.9"} {
		if _, err := ParseVersion(s); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("ParseVersion(%q): %v", s, err)
		}
	}
}

func TestReadReply(t *testing.T) {
	tests := []struct {
		in   string
		kind byte
		text string
		err  bool
	}{
		{"+OK\r\n", '+', "OK", false},
		{"-ERR x\r\n", '-', "ERR x", false},
		{":12\r\n", ':', "12", false},
		{":x\r\n", 0, "", true},
		{"$3\r\nabc\r\n", '$', "abc", false},
		{"$-1\r\n", '$', "", false},
		{"$3\r\nabcd\r\n", 0, "", true},
		{"*2\r\n$3\r\n1-0\r\n:5\r\n", '*', "", false},
		{"*-1\r\n", '*', "", false},
		{"*1\r\n*1\r\n$2\r\nab\r\n", '*', "", false},
		{"*2\r\n:1\r\n", 0, "", true},
		{"*1\r\n$2\r\nabX\r\n", 0, "", true},
		{"?\r\n", 0, "", true},
		{"+OK\n", 0, "", true},
		{strings.Repeat("*1\r\n", 20) + ":1\r\n", 0, "", true},
	}
	for _, tt := range tests {
		kind, text, err := ReadReply(bufio.NewReader(strings.NewReader(tt.in)))
		if (err != nil) != tt.err || kind != tt.kind || string(text) != tt.text {
			t.Errorf("%q: got %c %q %v", tt.in, kind, text, err)
		}
	}
}

func FuzzReadReply(f *testing.F) {
	for _, s := range []string{"+OK\r\n", "$3\r\nabc\r\n", "*2\r\n$3\r\n1-0\r\n:5\r\n", "-ERR\r\n", "*1\r\n*-1\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bufio.NewReaderSize(bytes.NewReader(in), 16)
		for range 100 {
			kind, text, err := ReadReply(r)
			if err != nil {
				return
			}
			if kind == '$' && len(text) > MaxBulkReply {
				t.Fatalf("bulk of %d bytes", len(text))
			}
		}
	})
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"7.0", "7.0.15", "255.255.255", "x", "1.-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		if err != nil {
			return
		}
		if v.Major < 1 || v.Minor < 0 || !v.AtLeast(v.Major, v.Minor) || v.AtLeast(v.Major, v.Minor+1) {
			t.Fatalf("%q: %+v", s, v)
		}
	})
}

// BenchmarkWriterStrings measures the RESP stream of string records, the commands of
// rdbgen's default dataset.
func BenchmarkWriterStrings(b *testing.B) {
	w, err := NewWriter(io.Discard, Options{})
	if err != nil {
		b.Fatal(err)
	}
	key := []byte("key100000001")
	h := record.Header{Key: key, Type: record.String, Value: key, ExpireAtMS: 1767225600000}
	b.ReportAllocs()
	b.SetBytes(int64(2 * len(key)))
	for b.Loop() {
		if err := w.Begin(&h); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWriterSet measures a set of a million members, written as commands of bounded
// size.
func BenchmarkWriterSet(b *testing.B) {
	w, err := NewWriter(io.Discard, Options{})
	if err != nil {
		b.Fatal(err)
	}
	h := record.Header{Key: []byte("s"), Type: record.Set, Len: 1_000_000}
	m := record.Member{Name: []byte("member1000000")}
	b.ReportAllocs()
	for b.Loop() {
		if err := w.Begin(&h); err != nil {
			b.Fatal(err)
		}
		for range 1_000_000 {
			if err := w.Add(&m); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.End(nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestTargetVersion(t *testing.T) {
	for target, want := range map[string]Version{"": {5, 0}, "redis-6.2": {6, 2}, "redis-7.4": {7, 4}, "valkey-8.0": {7, 2}} {
		if got, err := TargetVersion(target); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", target, got, err, want)
		}
	}
	if _, err := TargetVersion("redis-1.0"); !errors.Is(err, rdb.ErrUnknownTarget) {
		t.Errorf("unknown target: %v", err)
	}
}
