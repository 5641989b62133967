package decoder_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// sampleRecords returns records of every type the encoder writes, small (compact
// encodings) and large (plain ones), in two databases.
func sampleRecords() []record.Record {
	members := func(n int, f func(i int) record.Member) []record.Member {
		ms := make([]record.Member, n)
		for i := range ms {
			ms[i] = f(i)
		}
		return ms
	}
	str := func(i int) record.Member { return record.Member{Name: []byte(fmt.Sprint("m", i))} }
	num := func(i int) record.Member { return record.Member{Name: []byte(strconv.Itoa(i*1000 - 7))} }
	field := func(i int) record.Member {
		return record.Member{Name: []byte(fmt.Sprint("f", i)), Value: []byte(strconv.Itoa(i))}
	}
	scored := func(i int) record.Member {
		return record.Member{Name: []byte(fmt.Sprint("z", i)), Score: float64(i)/4 - 3}
	}
	return []record.Record{
		{Key: []byte("s"), Type: record.String, Value: []byte("value")},
		{Key: []byte("int"), Type: record.String, Value: []byte("-123456")},
		{Key: []byte("long"), Type: record.String, Value: bytes.Repeat([]byte("abc"), 1000), ExpireAtMS: 4102444800000},
		{Key: []byte("empty"), Type: record.String, Value: nil},
		{Key: []byte("h"), Type: record.Hash, Members: members(5, field)},
		{Key: []byte("hbig"), Type: record.Hash, Members: members(1000, field), ExpireAtMS: 4102444800000},
		{Key: []byte("l"), Type: record.List, Members: members(7, num)},
		{Key: []byte("lbig"), Type: record.List, Members: members(20000, str)},
		{Key: []byte("si"), Type: record.Set, Members: members(9, num)},
		{Key: []byte("ss"), Type: record.Set, Members: members(9, str)},
		{Key: []byte("sbig"), Type: record.Set, Members: members(1000, str)},
		{Key: []byte("z"), Type: record.ZSet, Members: members(10, scored)},
		{Key: []byte("zinf"), Type: record.ZSet, Members: []record.Member{{Name: []byte("a"), Score: math.Inf(1)}, {Name: []byte("b"), Score: math.Inf(-1)}, {Name: []byte("c"), Score: 0.1}}},
		{Key: []byte("zbig"), Type: record.ZSet, Members: members(1000, scored)},
		{DB: 5, Key: []byte("other"), Type: record.String, Value: []byte("x")},
	}
}

// writeFile writes recs with opts into a new file.
func writeFile(t testing.TB, recs []record.Record, opts encoder.Options) string {
	t.Helper()
	opts.CreatedAt = time.Unix(1, 0)
	return servertest.WriteRecords(t, recs, opts)
}

func TestReadEncoderFiles(t *testing.T) {
	want := canonAll(sampleRecords())
	for v := rdb.MinVersion; v <= rdb.MaxVersion; v++ {
		for _, opts := range []encoder.Options{
			{Target: "redis-8.2", RDBVersion: v},
			{Target: "redis-8.2", RDBVersion: v, DisableCompression: true, DisableChecksum: true},
		} {
			t.Run(fmt.Sprintf("v%d/compress=%t", v, !opts.DisableCompression), func(t *testing.T) {
				path := writeFile(t, sampleRecords(), opts)
				recs, rd := readAll(t, path)
				diff(t, canonAll(recs), want)
				if rd.Version() != v {
					t.Errorf("version %d, want %d", rd.Version(), v)
				}
				diff(t, hdtRecords(t, path), want)
			})
		}
	}
}

// hdtRecords reads a file with github.com/hdt3213/rdb's parser, the independent check,
// into canonical records (streams left out: it does not read them all).
func hdtRecords(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []record.Record
	err = parser.NewDecoder(f).Parse(func(o parser.RedisObject) bool {
		r := record.Record{DB: o.GetDBIndex(), Key: []byte(o.GetKey()), Type: record.Type(o.GetType())}
		if e := o.GetExpiration(); e != nil {
			r.ExpireAtMS = e.UnixMilli()
		}
		switch o := o.(type) {
		case *parser.StringObject:
			r.Value = o.Value
		case *parser.ListObject:
			for _, v := range o.Values {
				r.Members = append(r.Members, record.Member{Name: v})
			}
		case *parser.SetObject:
			for _, v := range o.Members {
				r.Members = append(r.Members, record.Member{Name: v})
			}
		case *parser.HashObject:
			for k, v := range o.Hash {
				r.Members = append(r.Members, record.Member{Name: []byte(k), Value: v})
			}
		case *parser.ZSetObject:
			for _, e := range o.Entries {
				r.Members = append(r.Members, record.Member{Name: []byte(e.Member), Score: e.Score})
			}
		default:
			return true
		}
		recs = append(recs, r)
		return true
	})
	if err != nil {
		t.Fatalf("hdt3213/rdb: %v", err)
	}
	return canonAll(recs)
}

func TestReadRedisDumpAgainstHDT(t *testing.T) {
	var want []string
	path := redistest.WriteDumpWith(t, []string{"--list-max-listpack-size", "4"}, func(ctx context.Context, c *redisClient) error {
		return fillEveryType(ctx, c, &want)
	})
	recs, _ := readAll(t, path)
	var noStreams []record.Record
	for _, r := range recs {
		if r.Type != record.Stream {
			noStreams = append(noStreams, r)
		}
	}
	diff(t, canonAll(noStreams), hdtRecords(t, path))
}

func TestResizeHints(t *testing.T) {
	path := writeFile(t, sampleRecords(), encoder.Options{})
	var rec recorder
	rd, err := decoder.File{Path: path}.Read(context.Background(), &rec)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]record.Counts{}
	for _, r := range sampleRecords() {
		c := want[r.DB]
		c.Keys++
		if r.ExpireAtMS > 0 {
			c.Expires++
		}
		want[r.DB] = c
	}
	if got := rd.ResizeHints(); !maps.Equal(got, want) {
		t.Errorf("hints %v, want the counts the file was written with, %v", got, want)
	}
	if rd.Stats().Keys != uint64(len(sampleRecords())) || rd.Stats().Expires != 2 {
		t.Errorf("stats %+v", rd.Stats())
	}
}
