package encoder

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/rdb"
)

// A testCollection is one collection record as a test writes and reads it back.
type testCollection struct {
	kind    string   // "hash", "set", "zset" or "list"
	names   []string // fields, members or elements, in write order
	values  []string // hash values
	scores  []float64
	limits  *rdb.Thresholds // nil: the defaults
	intsetW int             // expected intset width, when an intset
	// want is the encoding the hdt3213 parser reports, per RDB version family (9, 10, 11, 12);
	// redis is what OBJECT ENCODING says on Redis 7.0 with the same thresholds.
	want  map[int]string
	redis string
}

// families are the RDB versions whose encodings differ.
var families = []int{9, 10, 11, 12}

// per returns a want map: the first encoding for RDB 9, the second from 10 on, the third
// (if any) from 11 on.
func per(v9, v10 string, v11 ...string) map[int]string {
	m := map[int]string{9: v9, 10: v10, 11: v10, 12: v10}
	if len(v11) > 0 {
		m[11], m[12] = v11[0], v11[0]
	}
	return m
}

func seq(prefix string, n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = prefix + strconv.Itoa(i)
	}
	return s
}

func ints(from, n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(from + i)
	}
	return s
}

func pad(s string, n int) string { return s + strings.Repeat("x", n-len(s)) }

// integerStrings are strings at the edges of the listpack, ziplist and RDB integer widths,
// and strings that look like integers but are not canonical.
var integerStrings = []string{
	"0", "1", "12", "13", "-1", "127", "128", "-128", "-129", "4095", "4096", "-4096", "-4097",
	"32767", "32768", "-32768", "-32769", "8388607", "8388608", "-8388608", "-8388609",
	"2147483647", "2147483648", "-2147483648", "-2147483649",
	"9223372036854775807", "-9223372036854775808", "9223372036854775808",
	"007", "+1", "-0", "1 ", " 1", "1e3", "",
}

func scores(n int, f func(i int) float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = f(i)
	}
	return s
}

func collectionCases() map[string]testCollection {
	long := func(n int) []string { // values of lengths at the listpack and ziplist string edges
		out := []string{}
		for _, l := range []int{63, 64, 4095, 4096, 16383, 16384} {
			out = append(out, pad(strconv.Itoa(l), l))
		}
		return out[:n]
	}
	wide := rdb.DefaultThresholds()
	wide.HashMaxListpackValue, wide.ZSetMaxListpackValue, wide.SetMaxListpackValue = 20000, 20000, 20000
	small := rdb.DefaultThresholds()
	small.HashMaxListpackEntries, small.SetMaxIntsetEntries, small.ZSetMaxListpackEntries = 4, 4, 4
	small.SetMaxListpackEntries, small.ListMaxListpackSize = 6, 3
	mixedScores := []float64{0, math.Copysign(0, -1), 1, -1, 1.5, -2.25, 1e20, -1e-300, math.Inf(1), math.Inf(-1),
		1 << 62, 1<<62 + 1024, -(1 << 62), 0.1, 1.0 / 3, 4096, 123456789012}

	cases := map[string]testCollection{
		"hash-512-fields-64-bytes": {kind: "hash", names: seq("f", 512), values: repeat(pad("v", 64), 512),
			want: per("ziplist", "listpack"), redis: "listpack"},
		"hash-513-fields": {kind: "hash", names: seq("f", 513), values: seq("v", 513), want: per("hash", "hash"), redis: "hashtable"},
		"hash-value-65-bytes": {kind: "hash", names: []string{"a", "b", "c"}, values: []string{"1", pad("v", 65), "3"},
			want: per("hash", "hash"), redis: "hashtable"},
		"hash-field-65-bytes": {kind: "hash", names: []string{"a", pad("f", 65)}, values: []string{"1", "2"},
			want: per("hash", "hash"), redis: "hashtable"},
		"hash-integers": {kind: "hash", names: integerStrings, values: reverse(integerStrings),
			want: per("ziplist", "listpack"), redis: "listpack"},
		"hash-long-strings": {kind: "hash", names: seq("f", 6), values: long(6), limits: &wide,
			want: per("ziplist", "listpack"), redis: "listpack"},
		"hash-small-limits": {kind: "hash", names: seq("f", 5), values: seq("v", 5), limits: &small,
			want: per("hash", "hash"), redis: "hashtable"},

		"set-int16":          {kind: "set", names: []string{"-32768", "32767", "0", "5"}, intsetW: 2, want: per("intset", "intset"), redis: "intset"},
		"set-int32":          {kind: "set", names: []string{"32768", "1", "-2147483648"}, intsetW: 4, want: per("intset", "intset"), redis: "intset"},
		"set-int32-negative": {kind: "set", names: []string{"-32769", "1"}, intsetW: 4, want: per("intset", "intset"), redis: "intset"},
		"set-int64": {kind: "set", names: []string{"2147483648", "-1", "9223372036854775807", "-9223372036854775808"}, intsetW: 8,
			want: per("intset", "intset"), redis: "intset"},
		"set-512-integers": {kind: "set", names: ints(-256, 512), intsetW: 2, want: per("intset", "intset"), redis: "intset"},
		"set-513-integers": {kind: "set", names: ints(0, 513), want: per("set", "set"), redis: "hashtable"},
		"set-128-strings":  {kind: "set", names: seq(pad("m", 60), 128), want: per("set", "set", "listpack"), redis: "hashtable"},
		"set-129-strings":  {kind: "set", names: seq("m", 129), want: per("set", "set"), redis: "hashtable"},
		"set-mixed": {kind: "set", names: []string{"1", "2", "x", "007", "-0"},
			want: per("set", "set", "listpack"), redis: "hashtable"},
		"set-member-65-bytes": {kind: "set", names: []string{"a", pad("b", 65)}, want: per("set", "set"), redis: "hashtable"},
		"set-integers-past-intset-limit": {kind: "set", names: ints(0, 6), limits: &small,
			want: per("set", "set", "listpack"), redis: "hashtable"},

		"zset-128": {kind: "zset", names: seq(pad("m", 60), 128), scores: scores(128, func(i int) float64 { return float64(128 - i) }),
			want: per("ziplist", "listpack"), redis: "listpack"},
		"zset-129": {kind: "zset", names: seq("m", 129), scores: scores(129, func(i int) float64 { return float64(i) / 7 }),
			want: per("zset2", "zset2"), redis: "skiplist"},
		"zset-member-65-bytes": {kind: "zset", names: []string{"a", pad("b", 65)}, scores: []float64{1, 2},
			want: per("zset2", "zset2"), redis: "skiplist"},
		"zset-scores": {kind: "zset", names: seq("m", len(mixedScores)), scores: mixedScores,
			want: per("ziplist", "listpack"), redis: "listpack"},
		"zset-ties-and-integer-members": {kind: "zset", names: []string{"b", "a", "10", "9", "c"}, scores: []float64{1, 1, 2, 2, 0},
			want: per("ziplist", "listpack"), redis: "listpack"},
		"zset-long-members": {kind: "zset", names: long(4), scores: []float64{3, 2, 1, 0}, limits: &wide,
			want: per("ziplist", "listpack"), redis: "listpack"},

		"list-small":    {kind: "list", names: []string{"a", "b", "a", "1"}, want: per("quicklist", "quicklist2"), redis: "quicklist"},
		"list-integers": {kind: "list", names: integerStrings, want: per("quicklist", "quicklist2"), redis: "quicklist"},
		"list-many-nodes": {kind: "list", names: varied(3000),
			want: per("quicklist", "quicklist2"), redis: "quicklist"},
		"list-long-elements": {kind: "list", names: long(6), want: per("quicklist", "quicklist2"), redis: "quicklist"},
		"list-count-fill":    {kind: "list", names: seq("e", 10), limits: &small, want: per("quicklist", "quicklist2"), redis: "quicklist"},
		"list-over-a-mebibyte": {kind: "list", names: repeat(strings.Repeat("abcdefgh", 128), 1<<20/1024+1),
			want: per("quicklist", "quicklist2"), redis: "quicklist"},
	}
	return cases
}

// varied returns n elements of lengths 6 to 130, and some integers.
func varied(n int) []string {
	out := make([]string, n)
	for i := range out {
		if i%10 == 0 {
			out[i] = strconv.Itoa(i * 1000)
			continue
		}
		out[i] = pad("e"+strconv.Itoa(i), 6+i*7%125)
	}
	return out
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// write writes c as key with w.
func (c testCollection) write(w *Writer, key string) error {
	n := uint64(len(c.names))
	var err error
	switch c.kind {
	case "hash":
		err = sinkOpen(w, tHash, []byte(key), n, 0)
	case "set":
		err = sinkOpen(w, tSet, []byte(key), n, 0)
	case "zset":
		err = sinkOpen(w, tZSet, []byte(key), n, 0)
	case "list":
		err = sinkOpen(w, tList, []byte(key), n, 0)
	default:
		return fmt.Errorf("unknown kind %q", c.kind)
	}
	for i := 0; i < len(c.names) && err == nil; i++ {
		name := []byte(c.names[i])
		switch c.kind {
		case "hash":
			err = sinkField(w, name, []byte(c.values[i]))
		case "set":
			err = sinkAdd(w, name)
		case "zset":
			err = sinkScored(w, name, c.scores[i])
		case "list":
			err = sinkAdd(w, name)
		}
	}
	if err != nil {
		return err
	}
	return sinkEnd(w)
}
