package encoder

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hdt3213/rdb/model"
	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen/rdb"
)

// writeFile writes the collections of cases, one key each, in one file of RDB version v.
func writeFile(t testing.TB, v int, limits *rdb.Thresholds, cases map[string]testCollection, names []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Options{RDBVersion: v, CreatedAt: fixedTime, Thresholds: limits, CheckDuplicates: true, ToolVersion: goldenToolVersion})
	must(t, err)
	must(t, w.BeginDB(0, DBInfo{Keys: uint64(len(names))}))
	for _, name := range names {
		if err := cases[name].write(w, name); err != nil {
			t.Fatalf("write %s: %v", name, err)
		}
	}
	must(t, w.Close())
	return buf.Bytes()
}

// parseObjects reads every object of file with the hdt3213 parser, by key.
func parseObjects(t testing.TB, file []byte) map[string]model.RedisObject {
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

// casesByLimits groups case names by their thresholds, since one file has one set of them.
func casesByLimits(cases map[string]testCollection) map[*rdb.Thresholds][]string {
	groups := map[*rdb.Thresholds][]string{}
	for name, c := range cases {
		groups[c.limits] = append(groups[c.limits], name)
	}
	for _, names := range groups {
		sort.Strings(names)
	}
	return groups
}

func TestCollectionsRoundTrip(t *testing.T) {
	cases := collectionCases()
	for _, v := range append([]int{7, 8}, families...) {
		for limits, names := range casesByLimits(cases) {
			objs := parseObjects(t, writeFile(t, v, limits, cases, names))
			for _, name := range names {
				t.Run(name+"/v"+string(rune('0'+v/10))+string(rune('0'+v%10)), func(t *testing.T) {
					c := cases[name]
					o, ok := objs[name]
					if !ok {
						t.Fatal("missing from the file")
					}
					want := c.want[max(v, 9)]
					if v < 8 && want == "zset2" {
						want = "zset"
					}
					if got := o.GetEncoding(); got != want {
						t.Errorf("encoding %s, want %s", got, want)
					}
					checkContent(t, c, o)
				})
			}
		}
	}
}

// checkContent compares what the parser read with what was written.
func checkContent(t *testing.T, c testCollection, o model.RedisObject) {
	t.Helper()
	switch o := o.(type) {
	case *model.HashObject:
		if len(o.Hash) != len(c.names) {
			t.Fatalf("%d fields, want %d", len(o.Hash), len(c.names))
		}
		for i, f := range c.names {
			if got := string(o.Hash[f]); got != c.values[i] {
				t.Fatalf("field %q = %.40q, want %.40q", f, got, c.values[i])
			}
		}
	case *model.SetObject:
		got := make([]string, len(o.Members))
		for i, m := range o.Members {
			got[i] = string(m)
		}
		want := slices.Clone(c.names)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("members %.200q, want %.200q", got, want)
		}
		if c.intsetW > 0 {
			if width := (o.Extra.(*model.IntsetDetail).RawStringSize - 8) / len(c.names); width != c.intsetW {
				t.Fatalf("intset width %d, want %d", width, c.intsetW)
			}
		}
	case *model.ZSetObject:
		if len(o.Entries) != len(c.names) {
			t.Fatalf("%d members, want %d", len(o.Entries), len(c.names))
		}
		scores := map[string]float64{}
		for i, m := range c.names {
			scores[m] = c.scores[i]
		}
		compact := o.GetEncoding() == "listpack" || o.GetEncoding() == "ziplist"
		for i, e := range o.Entries {
			want, ok := scores[e.Member]
			if !ok || math.Float64bits(e.Score) != math.Float64bits(want) && !(e.Score == 0 && want == 0) {
				t.Fatalf("member %q score %v, want %v", e.Member, e.Score, want)
			}
			if compact && i > 0 {
				p := o.Entries[i-1]
				if p.Score > e.Score || p.Score == e.Score && p.Member > e.Member {
					t.Fatalf("compact sorted set out of order: %q (%v) before %q (%v)", p.Member, p.Score, e.Member, e.Score)
				}
			}
		}
	case *model.ListObject:
		if len(o.Values) != len(c.names) {
			t.Fatalf("%d elements, want %d", len(o.Values), len(c.names))
		}
		for i, v := range o.Values {
			if string(v) != c.names[i] {
				t.Fatalf("element %d = %.40q, want %.40q", i, v, c.names[i])
			}
		}
	default:
		t.Fatalf("unexpected object %T", o)
	}
}

func TestCollectionErrors(t *testing.T) {
	tests := []struct {
		name  string
		write func(w *Writer) error
		want  error
		msg   string
	}{
		{"empty hash", func(w *Writer) error { return sinkOpen(w, tHash, []byte("k"), 0, 0) }, ErrEmpty, `"k"`},
		{"empty list", func(w *Writer) error { return sinkOpen(w, tList, []byte("k"), 0, 0) }, ErrEmpty, "empty"},
		{"nan score", func(w *Writer) error {
			sinkOpen(w, tZSet, []byte("z"), 1, 0)
			return sinkScored(w, []byte("m"), math.NaN())
		}, ErrNaNScore, `member "m"`},
		{"too few", func(w *Writer) error {
			sinkOpen(w, tSet, []byte("s"), 2, 0)
			sinkAdd(w, []byte("a"))
			return sinkEnd(w)
		}, ErrMemberCount, "declared 2, added 1"},
		{"too many", func(w *Writer) error {
			sinkOpen(w, tList, []byte("l"), 1, 0)
			sinkAdd(w, []byte("a"))
			return sinkAdd(w, []byte("b"))
		}, ErrMemberCount, "more than the 1"},
		{"too many streamed", func(w *Writer) error {
			sinkOpen(w, tHash, []byte("h"), 600, 0)
			for i := range 600 {
				sinkField(w, []byte{byte(i), byte(i >> 8)}, nil)
			}
			return sinkField(w, []byte("x"), nil)
		}, ErrMemberCount, "more than the 600"},
		{"stream tail for a set", func(w *Writer) error {
			sinkOpen(w, tSet, []byte("s"), 1, 0)
			sinkAdd(w, []byte("a"))
			return sinkEndStream(w, StreamMeta{})
		}, ErrNoCollection, "set the stream metadata while set is open"},
		{"nan score with none open", func(w *Writer) error {
			return sinkScored(w, []byte("m"), math.NaN())
		}, ErrNoCollection, "add a sorted set member while none is open"},
		{"end without begin", func(w *Writer) error { return sinkEnd(w) }, ErrNoCollection, "none open"},
		{"string inside collection", func(w *Writer) error {
			sinkOpen(w, tSet, []byte("s"), 1, 0)
			return sinkString(w, []byte("k"), []byte("v"), 0)
		}, ErrCollectionOpen, `"s" was not ended`},
		{"close inside collection", func(w *Writer) error {
			sinkOpen(w, tSet, []byte("s"), 1, 0)
			return w.Close()
		}, ErrCollectionOpen, "not ended"},
		{"negative expiry", func(w *Writer) error { return sinkOpen(w, tZSet, []byte("z"), 1, -1) }, ErrInvalidExpiry, `"z": expiry -1 ms`},
		{"duplicate key", func(w *Writer) error {
			sinkString(w, []byte("k"), nil, 0)
			return sinkOpen(w, tHash, []byte("k"), 1, 0)
		}, ErrDuplicateKey, `"k"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := NewWriter(&bytes.Buffer{}, Options{CheckDuplicates: true})
			must(t, err)
			must(t, w.BeginDB(0, DBInfo{}))
			err = tt.write(w)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v, want %v containing %q", err, tt.want, tt.msg)
			}
			if again := sinkString(w, []byte("later"), nil, 0); !errors.Is(again, err) && again != err {
				t.Fatalf("error not sticky: %v after %v", again, err)
			}
		})
	}
}

// TestDuplicateIntsetMember checks that an intset's repeats are refused even without
// CheckDuplicates, since sorting finds them for free.
func TestDuplicateIntsetMember(t *testing.T) {
	w, err := NewWriter(&bytes.Buffer{}, Options{})
	must(t, err)
	must(t, w.BeginDB(0, DBInfo{}))
	err = testCollection{kind: "set", names: []string{"1", "2", "1"}}.write(w, "s")
	if !errors.Is(err, ErrDuplicateMember) || !strings.Contains(err.Error(), `"s": member 1`) {
		t.Fatalf("got %v, want ErrDuplicateMember naming the key and member", err)
	}
}

func TestDuplicateMembersWithCheck(t *testing.T) {
	for _, kind := range []string{"hash", "set", "zset"} {
		for _, n := range []int{3, 700} { // compact candidates, and streamed plain types
			t.Run(kind, func(t *testing.T) {
				c := testCollection{kind: kind, names: append(seq("m", n-1), "m0"), values: repeat("v", n), scores: make([]float64, n)}
				w, err := NewWriter(&bytes.Buffer{}, Options{CheckDuplicates: true})
				must(t, err)
				must(t, w.BeginDB(0, DBInfo{}))
				if err := c.write(w, "k"); !errors.Is(err, ErrDuplicateMember) {
					t.Fatalf("got %v, want ErrDuplicateMember", err)
				}
			})
		}
	}
	// Lists may repeat elements.
	w, _ := NewWriter(&bytes.Buffer{}, Options{CheckDuplicates: true})
	must(t, w.BeginDB(0, DBInfo{}))
	must(t, testCollection{kind: "list", names: []string{"a", "a"}}.write(w, "l"))
}

func TestThresholdOptions(t *testing.T) {
	bad := rdb.DefaultThresholds()
	bad.ZSetMaxListpackValue = -1
	if _, err := NewWriter(&bytes.Buffer{}, Options{Thresholds: &bad}); !errors.Is(err, rdb.ErrInvalidOption) || !strings.Contains(err.Error(), "zset-max-listpack-value -1") {
		t.Fatalf("negative threshold: %v", err)
	}
	bad = rdb.DefaultThresholds()
	bad.ListMaxListpackSize = -6
	if _, err := NewWriter(&bytes.Buffer{}, Options{Thresholds: &bad}); !errors.Is(err, rdb.ErrInvalidOption) || !strings.Contains(err.Error(), "list-max-listpack-size -6") {
		t.Fatalf("list size -6: %v", err)
	}
	zero := rdb.Thresholds{} // every collection plain, one list element a node
	objs := parseObjects(t, writeFile(t, 12, &zero, map[string]testCollection{
		"h": {kind: "hash", names: []string{"a"}, values: []string{"1"}},
		"s": {kind: "set", names: []string{"1"}},
		"l": {kind: "list", names: []string{"a", "b"}},
	}, []string{"h", "l", "s"}))
	for key, enc := range map[string]string{"h": "hash", "s": "set", "l": "quicklist2"} {
		if got := objs[key].GetEncoding(); got != enc {
			t.Errorf("%s: %s, want %s", key, got, enc)
		}
	}
	if nodes := len(objs["l"].(*model.ListObject).Extra.(*model.Quicklist2Detail).NodeEncodings); nodes != 2 {
		t.Errorf("list-max-listpack-size 0: %d nodes, want 2", nodes)
	}
}
