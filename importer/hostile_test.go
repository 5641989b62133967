package importer

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

// keySink records the strings written to it as "db:key=value", and the counts each db was
// opened with.
type keySink struct {
	record.Collector
	db   int
	got  []string
	info map[int]record.Counts
}

func (s *keySink) BeginDB(db int, info record.Counts) error {
	s.db = db
	if s.info == nil {
		s.info = map[int]record.Counts{}
	}
	s.info[db] = info
	return nil
}

func (s *keySink) Begin(h *record.Header) error {
	if h.Type == record.String {
		s.got = append(s.got, fmt.Sprintf("%d:%s=%s", s.db, h.Key, h.Value))
	}
	return s.Collector.Begin(h)
}

// TestDuplicatesOnOneLine: two records of one key on one line are two records: "last"
// keeps the second, "first" the first, and the db is opened with one key.
func TestDuplicatesOnOneLine(t *testing.T) {
	in := `[{"key":"a","value":"1"},{"key":"a","value":"2"},{"key":"b","value":"3"}]`
	for _, tt := range []struct {
		on   OnDuplicate
		want string
	}{
		{DupLast, "0:a=2 0:b=3"},
		{DupFirst, "0:a=1 0:b=3"},
	} {
		sink := &keySink{}
		open := func() (Reader, error) { return NewJSONReader(strings.NewReader(in)), nil }
		st, err := Copy(context.Background(), sink, open, Options{OnDuplicate: tt.on})
		if err != nil {
			t.Fatalf("%s: %v", tt.on, err)
		}
		if got := strings.Join(sink.got, " "); got != tt.want || st.Written != 2 || st.Duplicates != 1 {
			t.Fatalf("%s: wrote %q, stats %+v", tt.on, got, st)
		}
		if tt.on == DupLast && sink.info[0].Keys != 2 {
			t.Fatalf("db 0 opened with %+v", sink.info[0])
		}
	}
	open := func() (Reader, error) { return NewJSONReader(strings.NewReader(in)), nil }
	_, err := Copy(context.Background(), &keySink{}, open, Options{})
	if !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("default: %v", err)
	}
}

// TestHostileInput: each input that was read wrongly or reported badly gets one line that
// names the line and the problem, or is read exactly.
func TestHostileInput(t *testing.T) {
	base := time.UnixMilli(1_800_000_000_000)
	tests := []struct {
		name, in string
		csv      bool
		want     []string
	}{
		{"json key twice", `{"key":"a","value":"1","key":"b"}` + "\n" + `{"key":"c","value":"2"}`, false,
			[]string{`error line 1: field "key" given twice`, "2:0:string:c=2"}},
		{"json nested names are not fields", `{"key":"a","hash":{"key":"1","value":"2"},"x":[{"key":1}],"type":"hash"}`, false,
			[]string{"1:0:hash:a key=1 value=2"}},
		{"json with a byte-order mark", "\ufeff" + `{"key":"a","value":"1"}`, false, []string{"1:0:string:a=1"}},
		{"json truncated last record", `{"key":"a","value":"1"}` + "\n" + `{"key":"b","value":"2"}` + "\n" + `{"key":"c","va`, false,
			[]string{"1:0:string:a=1", "2:0:string:b=2", "error line 3: JSON: unexpected end of input (the input is cut short)"}},
		{"json truncated after blank lines", `{"key":"a","value":"1"}` + "\n\n\n  {\n\"key\"", false,
			[]string{"1:0:string:a=1", "error line 4: JSON: unexpected end of input (the input is cut short)"}},
		{"json expiry in the first millisecond", `{"key":"a","value":"1","expiration":"1970-01-01T00:00:00.0005Z"}`, false,
			[]string{`error line 1: "expiration" "1970-01-01T00:00:00.0005Z": within the first millisecond of 1970, which an RDB file cannot tell from no expiry`}},
		{"json expiry before 1970", `{"key":"a","value":"1","expiration":"1969-12-31T23:59:59.9995Z"}`, false,
			[]string{`error line 1: "expiration" "1969-12-31T23:59:59.9995Z": before 1970`}},
		{"json expiry of 1 ms", `{"key":"a","value":"1","expiration":"1970-01-01T00:00:00.001Z"}`, false,
			[]string{"1:0:string:a=1 exp=1"}},
		{"csv CR LF inside quotes", "key,value\r\na,\"x\r\ny\"\r\nb,2\r\n", true,
			[]string{`error line 2: CSV: a quoted field holds a CR LF line break ("\r\n"), which CSV reading turns into "\n": refused, to keep values exact (give such values in JSON input)`}},
		{"csv CR LF line ends, LF and quotes in a field", "key,value\r\na,\"x\ny \"\"q\"\"\"\r\n\r\nb,\"2\r\"\r\n", true,
			[]string{"2:0:string:a=x\ny \"q\"", "5:0:string:b=2\r"}},
		{"csv header cell with a newline", "\"\n\"", true,
			[]string{`error line 1: CSV header has no key column "key" (columns: "\n")`}},
		{"csv huge ttl in seconds", "key,value,ttl\na,1,99999999999999\nb,1,9999999999999999999\n", true,
			[]string{"2:0:string:a=1 exp=100001799999999000",
				`error line 3: ttl "9999999999999999999": too far in the future: an expiry is at most 9223370236854775 seconds from now`}},
		{"csv ttl under a millisecond", "key,value,ttl\na,1,1us\n", true, []string{"2:0:string:a=1 exp=1800000000001"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Reader = NewJSONReader(strings.NewReader(tt.in))
			if tt.csv {
				r = NewCSVReader(strings.NewReader(tt.in), CSVOptions{BaseTime: base})
			}
			got := readAll(r)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestDetectFormatWithBOM(t *testing.T) {
	for _, in := range []string{"\ufeff[{\"key\":\"a\",\"value\":\"1\"}]", "\ufeff \n{\"key\":\"a\"}"} {
		input, err := Open("-", strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if f := DetectFormat("data", input); f != FormatJSON {
			t.Fatalf("%q detected as %s", in, f)
		}
	}
}

// TestBadGzip: compressed input cut short, or followed by data that is not gzip, is an error
// that says so, with the line it got to, for CSV and JSON alike.
func TestBadGzip(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("key,value\n" + strings.Repeat("a,1\n", 1)))
	zw.Close()
	gz := buf.Bytes()
	var jbuf bytes.Buffer
	zw = gzip.NewWriter(&jbuf)
	zw.Write([]byte(`{"key":"a","value":"1"}` + "\n" + `{"key":"b","value":"1"}`))
	zw.Close()
	jgz := jbuf.Bytes()
	tests := []struct {
		name string
		in   []byte
		csv  bool
		want string
	}{
		{"csv truncated", gz[:len(gz)-12], true, "the compressed input ends early"},
		{"multistream", append(append([]byte{}, gz...), gz[:]...), true, ""},
		{"csv trailing garbage", append(append([]byte{}, gz...), "garbage!!"...), true, "data that is not gzip follows the compressed input"},
		{"json truncated", jgz[:len(jgz)-12], false, "the compressed input ends early"},
		{"json trailing garbage", append(append([]byte{}, jgz...), "garbage!!"...), false, "data that is not gzip follows the compressed input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := Open("-", bytes.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			var r Reader
			if tt.csv {
				r = NewCSVReader(in, CSVOptions{})
			} else {
				r = NewJSONReader(in)
			}
			got := readAll(r)
			last := got[len(got)-1]
			if tt.want == "" {
				if strings.Join(got, " ") != "2:0:string:a=1 3:0:string:key=value 4:0:string:a=1" {
					t.Fatalf("got %q", got)
				}
				return
			}
			if !strings.HasPrefix(last, "error line ") || !strings.Contains(last, "gzip: "+tt.want) || strings.Contains(last, "JSON") {
				t.Fatalf("got %q", got)
			}
		})
	}
}

// TestCRLFGuardAcrossReads feeds the guard one byte at a time.
func TestCRLFGuardAcrossReads(t *testing.T) {
	r := NewCSVReader(io.MultiReader(oneByte("key,value\n\"a\r"), oneByte("\nb\",1\n")), CSVOptions{})
	got := readAll(r)
	if len(got) != 1 || !strings.Contains(got[0], "error line 2: CSV: a quoted field holds a CR LF") {
		t.Fatalf("got %q", got)
	}
}

func oneByte(s string) io.Reader { return &slowReader{s} }

type slowReader struct{ s string }

func (r *slowReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	p[0] = r.s[0]
	r.s = r.s[1:]
	return 1, nil
}

// longList returns a JSON record of a list of n elements "e0" … and the escaped "\u0041".
func longList(n int) string {
	var b strings.Builder
	b.WriteString(`{"key":"l","type":"list","expiration":"2030-01-01T00:00:00Z","values":[`)
	for i := range n {
		fmt.Fprintf(&b, `"e%d",`, i)
	}
	b.WriteString(`"\u0041"]}`)
	return b.String()
}

// TestLongListStreamed: a list past StreamListsOver elements is written from the input, not
// held as members, and comes out the same; a bad element is found when it is read.
func TestLongListStreamed(t *testing.T) {
	n := StreamListsOver + 5
	in := longList(n) + "\n" + `{"key":"s","value":"x"}`
	r := NewJSONReader(strings.NewReader(in))
	rec, err := r.Read()
	if err != nil || rec.Members != nil || r.StreamedMembers() != uint64(n+1) {
		t.Fatalf("read %v: %d members held, %d streamed", err, len(rec.Members), r.StreamedMembers())
	}
	var sink record.Collector
	open := func() (Reader, error) { return NewJSONReader(strings.NewReader(longList(n))), nil }
	st, err := Copy(context.Background(), &sink, open, Options{})
	if err != nil || st.Written != 1 {
		t.Fatalf("Copy: %v, %+v", err, st)
	}
	got := sink.Rec
	if got.Type != record.List || string(got.Key) != "l" || len(got.Members) != n+1 || got.ExpireAtMS != 1893456000000 ||
		string(got.Members[0].Name) != "e0" || string(got.Members[n-1].Name) != fmt.Sprint("e", n-1) || string(got.Members[n].Name) != "A" {
		t.Fatalf("got %s, %d members, exp %d", got.Key, len(got.Members), got.ExpireAtMS)
	}
	bad := strings.Replace(longList(n), `"e7",`, `7,`, 1)
	_, err = NewJSONReader(strings.NewReader(bad)).Read()
	if err == nil || err.Error() != `line 1: "values": want a string, got 7` {
		t.Fatalf("bad element: %v", err)
	}
}

// TestLastCountsExpiries: with "last", each db is opened with the keys and expiries of its
// keys' last records, whichever of a key's records expire.
func TestLastCountsExpiries(t *testing.T) {
	in := `{"key":"a","value":"1","expiration":"2100-01-01T00:00:00Z"}
{"key":"b","value":"1"}
{"key":"a","value":"2"}
{"key":"b","value":"2","expiration":"2100-01-01T00:00:00Z"}
{"key":"c","value":"1","expiration":"2100-01-01T00:00:00Z"}
{"db":1,"key":"a","value":"1","expiration":"2100-01-01T00:00:00Z"}
`
	sink := &keySink{}
	open := func() (Reader, error) { return NewJSONReader(strings.NewReader(in)), nil }
	st, err := Copy(context.Background(), sink, open, Options{OnDuplicate: DupLast})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]record.Counts{0: {Keys: 3, Expires: 2}, 1: {Keys: 1, Expires: 1}}
	if sink.info[0] != want[0] || sink.info[1] != want[1] || st.Duplicates != 2 {
		t.Fatalf("dbs opened with %v, %d duplicates; want %v, 2", sink.info, st.Duplicates, want)
	}
}
