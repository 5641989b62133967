package importer

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/record"
)

// readAll reads every record, rendering each as "line:db:type:key=..." and each error as
// "error line N: ...".
func readAll(r Reader) []string {
	var out []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, "error "+err.Error())
			var le *LineError
			if !errors.As(err, &le) || le.Fatal {
				return out
			}
			continue
		}
		s := strings.Join([]string{itoa(r.Line()), itoa(int64(rec.DB)), string(rec.Type), string(rec.Key)}, ":")
		if rec.Value != nil {
			s += "=" + string(rec.Value)
		}
		for _, m := range rec.Members {
			s += " " + string(m.Name)
			if m.Value != nil {
				s += "=" + string(m.Value)
			}
			if rec.Type == record.ZSet {
				s += "@" + ftoa(m.Score)
			}
		}
		if rec.ExpireAtMS != 0 {
			s += " exp=" + itoa(rec.ExpireAtMS)
		}
		out = append(out, s)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
func ftoa(f float64) string {
	if math.IsInf(f, 1) {
		return "+inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func TestJSONReader(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"array as the tool writes it", "[\n" +
			`{"db":0,"key":"s","expiration":"2022-12-25T18:11:12.573+08:00","size":128,"type":"string","encoding":"string","value":"v"},` + "\n" +
			`{"db":2,"key":"l","size":1,"type":"list","encoding":"quicklist","values":["a","b","a"]},` + "\n" +
			`{"db":2,"key":"h","type":"hash","hash":{"f":"1","g":"2"}},` + "\n" +
			`{"db":2,"key":"z","type":"zset","entries":[{"member":"m","score":2.5},{"member":"n","score":"-inf"}]}` + "\n]",
			[]string{"2:0:string:s=v exp=1671963072573", "3:2:list:l a b a", "4:2:hash:h f=1 g=2", "5:2:zset:z m@2.5 n@-Inf"}},
		{"empty array", "[\n\n]", nil},
		{"empty input", "  \n", nil},
		{"json lines, type inferred", `{"key":"a","value":"1"}` + "\n\n" + `{"key":"b","members":["x"]}` + "\n",
			[]string{"1:0:string:a=1", "3:0:set:b x"}},
		{"objects over lines", "{\"key\":\n\"a\",\n\"value\":\"1\"}\n{\"key\":\"b\",\"value\":\"2\"}",
			[]string{"1:0:string:a=1", "4:0:string:b=2"}},
		{"escapes and binary", `{"key":"\u00e9\ud83d\ude00\n","value":"` + "\xff\xfe" + `\"\\"}`, []string{"1:0:string:é😀\n=\xff\xfe\"\\"}},
		{"bad records go on", `{"key":"a","value":"1"}` + "\n" + `{"key":"b"}` + "\n" + `{"key":"c","type":"module","entries":[]}` + "\n" +
			`{"key":"c2","type":"module","moduleType":"ab","encodingVersion":1,"serialized":"AA=="}` + "\n" +
			`{"key":"c3","type":"module","moduleType":"rdbgen-mt","encodingVersion":1,"serialized":"%%"}` + "\n" +
			`{"type":"module-aux","moduleType":"rdbgen-mt","encodingVersion":1,"serialized":"AA==","when":"during"}` + "\n" +
			`{"key":"c4","type":"blob","value":"x"}` + "\n" +
			`{"key":"d","type":"zset","entries":[{"member":"m","score":"x"}]}` + "\n" + `{"key":"e","value":"1","db":-1}` + "\n" +
			`{"key":"f","expiration":"soon","value":"1"}` + "\n" + `{"key":"g","value":1}` + "\n" + `[1]` + "\n" + `{"key":"h","value":"2"}`,
			[]string{"1:0:string:a=1",
				`error line 2: no "type", and none of value, values, members, hash, entries`,
				`error line 3: module: needs "moduleType", "encodingVersion" and "serialized"`,
				`error line 4: module: record: invalid module type name (want 9 characters of A-Z, a-z, 0-9, - and _): "ab"`,
				`error line 5: module: "serialized": not standard base64: illegal base64 data at input byte 0`,
				`error line 6: module-aux: "when" "during": want "before" or "after"`,
				`error line 7: "type" "blob" is not supported (known: string, list, set, hash, zset, stream, module, module-aux, function)`,
				`error line 8: entries[0] "m": score "x": want a number, or "inf" or "-inf"`,
				`error line 9: "db" -1: want a whole number from 0 to 2147483647`,
				`error line 10: "expiration" "soon": want an RFC 3339 time such as 2025-01-02T15:04:05.123Z`,
				`error line 11: want a string, got 1`,
				`error line 12: want a JSON object for each key`,
				"13:0:string:h=2"}},
		{"missing value for type", `{"key":"a","type":"hash","value":"x"}`, []string{`error line 1: a hash needs "hash"`}},
		{"two value fields", `{"key":"a","value":"x","values":["y"]}`, []string{`error line 1: both "value" and "values": give one, or a "type"`}},
		{"hash value not a string", `{"key":"a","hash":{"f":1}}`, []string{`error line 1: "hash": field "f": want a string value`}},
		{"syntax error ends the input", `{"key":"a","value":"1"}` + "\n" + `{"key":"b",` + "\n" + `"value"}` + "\n" + `{"key":"c","value":"1"}`,
			[]string{"1:0:string:a=1", "error line 3: JSON: invalid character '}' after object key"}},
		{"truncated array", "[\n" + `{"key":"a","value":"1"},` + "\n", []string{"2:0:string:a=1", "error line 2: JSON: unexpected end of input (the input is cut short)"}},
		{"junk after array", `[{"key":"a","value":"1"}] x`, []string{"1:0:string:a=1", "error line 1: JSON: more after the closing ]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readAll(NewJSONReader(strings.NewReader(tt.in)))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestCSVReader(t *testing.T) {
	base := time.UnixMilli(1_800_000_000_000)
	tests := []struct {
		name, in string
		opts     CSVOptions
		want     []string
	}{
		{"strings with ttl", "key,value,ttl\na,1,30m\nb,\"x,y\",\nc,3,60\n", CSVOptions{},
			[]string{"2:0:string:a=1 exp=1800001800000", "3:0:string:b=x,y", "4:0:string:c=3 exp=1800000060000"}},
		{"hashes grouped", "key,field,value\nh,a,1\nh,b,2\ng,a,3\n", CSVOptions{DB: 4},
			[]string{"2:4:hash:h a=1 b=2", "4:4:hash:g a=3"}},
		{"mapped columns", "id;name;email\n1;ann;a@x\n2;bob;b@x\n", CSVOptions{Type: record.Hash, Key: "id", Field: "name", Value: "email", Comma: ';'},
			[]string{"2:0:hash:1 ann=a@x", "3:0:hash:2 bob=b@x"}},
		{"string columns named", "k,v,extra\n1,2,3\n", CSVOptions{Key: "k", Value: "v"}, []string{"2:0:string:1=2"}},
		{"bad rows go on", "key,value,ttl\na,1,soon\nb,2,-5\nc,3\nd,4,\n", CSVOptions{},
			[]string{`error line 2: ttl "soon": want a duration (30m, 1h) or whole seconds`,
				`error line 3: ttl "-5": must be positive (leave it empty for no expiry)`,
				"error line 4: CSV: wrong number of fields", "5:0:string:d=4"}},
		{"repeated field skips the hash", "key,field,value\nh,a,1\nh,a,2\nh,b,3\ng,a,1\n", CSVOptions{},
			[]string{`error line 3: hash "h": field "a" repeated (first at line 2)`, "5:0:hash:g a=1"}},
		{"ttl differs in a hash", "key,field,value,ttl\nh,a,1,1m\nh,b,2,\nh,c,3,2m\n", CSVOptions{},
			[]string{`error line 4: hash "h": ttl "2m" differs from the one on line 2`}},
		{"missing column", "key,val\na,1\n", CSVOptions{}, []string{`error line 1: CSV header has no value column "value" (columns: key,val)`}},
		{"missing ttl column", "key,value\na,1\n", CSVOptions{TTL: "expires"}, []string{`error line 1: CSV header has no ttl column "expires" (columns: key,value)`}},
		{"hash needs field", "key,value\na,1\n", CSVOptions{Type: record.Hash}, []string{`error line 1: CSV header has no field column "field" (columns: key,value)`}},
		{"empty", "", CSVOptions{}, []string{"error line 1: CSV: empty input: want a header row such as key,value"}},
		{"bare quote", "key,value\na,b\"c\nd,1\n", CSVOptions{}, []string{"error line 2: CSV: bare \" in non-quoted-field", "3:0:string:d=1"}},
		{"multi-line value", "key,value\na,\"x\ny\"\nb,1\n", CSVOptions{}, []string{"2:0:string:a=x\ny", "4:0:string:b=1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.BaseTime = base
			got := readAll(NewCSVReader(strings.NewReader(tt.in), tt.opts))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// FuzzJSONReader: no input makes the reader panic or loop; errors carry a line.
func FuzzJSONReader(f *testing.F) {
	f.Add(`[{"db":0,"key":"a","type":"hash","hash":{"f":"v"}},{"key":"z","entries":[{"member":"m","score":1}]}]`)
	f.Add(`{"key":"a","value":"\ud83d"}` + "\n" + `{"key":"b","members":["x","x"]}`)
	f.Add(`{"key":"a","hash":{"f":"\u00","g":"x"}}`)
	f.Add(`{"key":"s","type":"stream","entries":[{"fields":["a","b"],"msgs":[{"id":"1-1","fields":{"b":"x","a":"1"},"deleted":false},{"id":"1-2","fields":{"c":"9"},"deleted":true}]}],` +
		`"groups":[{"name":"g","lastId":"1-1","pending":[{"id":"1-1","deliveryTime":5,"deliveryCount":1}],"consumers":[{"name":"c","seenTime":5,"pending":["1-1"],"activeTime":18446744073709551615}],"entriesRead":1}],` +
		`"len":1,"lastId":"1-2","firstId":"1-1","maxDeletedId":"1-2","addedEntriesCount":2,"version":3}`)
	f.Add(`{"db":1,"key":"m","type":"module","moduleType":"rdbgen-mt","encodingVersion":1,"serialized":"AgUA"}` + "\n" +
		`{"type":"module-aux","moduleType":"ft-index0","encodingVersion":1,"serialized":"BQNpZHgA","when":"before"}`)
	f.Fuzz(func(t *testing.T, in string) {
		r := NewJSONReader(strings.NewReader(in))
		for n := 0; ; n++ {
			if n > len(in)+2 {
				t.Fatalf("more records than bytes")
			}
			rec, err := r.Read()
			if err == io.EOF {
				return
			}
			var le *LineError
			if err != nil && !errors.As(err, &le) {
				t.Fatalf("error without a line: %v", err)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			if err != nil && le.Line < 1 {
				t.Fatalf("line %d", le.Line)
			}
			if err != nil && le.Fatal {
				if _, err := r.Read(); err != io.EOF {
					t.Fatalf("read after a fatal error: %v", err)
				}
				return
			}
			if err == nil && rec.Type == "" {
				t.Fatal("record without a type")
			}
		}
	})
}

// FuzzCSVReader: no input makes the reader panic or loop.
func FuzzCSVReader(f *testing.F) {
	f.Add("key,value,ttl\na,1,30m\nb,2,\n")
	f.Add("key,field,value\nh,a,1\nh,a,2\ng,b,\"3\n\"\n")
	f.Add("\"\n\"")
	f.Add("key,value\r\na,\"x\r\ny\"\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		for _, typ := range []record.Type{"", record.String, record.Hash} {
			r := NewCSVReader(strings.NewReader(in), CSVOptions{Type: typ})
			for n := 0; ; n++ {
				if n > len(in)+2 {
					t.Fatalf("more records than bytes")
				}
				_, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil && strings.Contains(err.Error(), "\n") {
					t.Fatalf("error of more than one line: %q", err)
				}
				var le *LineError
				if err != nil && (!errors.As(err, &le) || le.Fatal) {
					break
				}
			}
		}
	})
}

// TestJSONSkiplistScores: a sorted set whose "encoding" names a skiplist (export's "zset" and
// "zset2", hdt3213's "skiplist") is read with DoubleScores, so that a -0 score is written as
// a server packing the set into a listpack holds it (0); other encodings, or none, are not.
func TestJSONSkiplistScores(t *testing.T) {
	for _, tt := range []struct {
		encoding string
		want     bool
	}{{`"zset2"`, true}, {`"zset"`, true}, {`"skiplist"`, true}, {`"listpack"`, false}, {`"ziplist"`, false}, {"", false}} {
		enc := ""
		if tt.encoding != "" {
			enc = `,"encoding":` + tt.encoding
		}
		rec, err := NewJSONReader(strings.NewReader(`{"key":"z","type":"zset","entries":[{"member":"m","score":-0}]` + enc + `}`)).Read()
		if err != nil || rec.DoubleScores != tt.want || rec.Header().DoubleScores != tt.want {
			t.Errorf("encoding %s: DoubleScores %v, %v; want %v", tt.encoding, rec.DoubleScores, err, tt.want)
		}
	}
}
