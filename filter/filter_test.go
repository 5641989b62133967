package filter_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/record"
)

// recorder keeps every record and the BeginDB calls.
type recorder struct {
	record.Collector
	keys  []string
	begin []string
}

func (r *recorder) BeginDB(db int, c record.Counts) error {
	r.begin = append(r.begin, fmt.Sprintf("%d:%d/%d", db, c.Keys, c.Expires))
	return r.Collector.BeginDB(db, c)
}

func (r *recorder) Begin(h *record.Header) error {
	r.Collector.Begin(h)
	if h.Type == record.String {
		r.keys = append(r.keys, fmt.Sprintf("%d/%s", r.Rec.DB, r.Rec.Key))
	}
	return nil
}

func (r *recorder) End(t *record.StreamTail) error {
	r.Collector.End(t)
	r.keys = append(r.keys, fmt.Sprintf("%d/%s:%s:%d", r.Rec.DB, r.Rec.Key, r.Rec.Type, len(r.Rec.Members)))
	return nil
}

var now = time.UnixMilli(1_000_000)

// feed writes a small dataset of two databases through s.
func feed(t *testing.T, s record.Sink) {
	t.Helper()
	recs := [][]record.Record{
		{
			{Key: []byte("user:1"), Type: record.String, Value: []byte("a")},
			{Key: []byte("user:2"), Type: record.String, Value: []byte("b"), ExpireAtMS: now.UnixMilli() - 1},
			{Key: []byte("tags"), Type: record.Set, Members: []record.Member{{Name: []byte("x")}, {Name: []byte("y")}}},
		},
		{
			{Key: []byte("user:3"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}, ExpireAtMS: now.UnixMilli() + 1},
			{Key: []byte("list"), Type: record.List, Members: []record.Member{{Name: []byte("e")}}},
		},
	}
	for db, rs := range recs {
		if err := s.BeginDB(db*2, record.Counts{Keys: uint64(len(rs))}); err != nil {
			t.Fatal(err)
		}
		for i := range rs {
			if err := rs[i].WriteTo(s); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestFilter(t *testing.T) {
	cases := []struct {
		name  string
		opts  filter.Options
		keys  string
		begin string
	}{
		{"everything", filter.Options{}, "[0/user:1 0/user:2 0/tags:set:2 2/user:3:hash:1 2/list:list:1]", "[0:0/0 2:0/0]"},
		{"db", filter.Options{DBs: []int{2}}, "[2/user:3:hash:1 2/list:list:1]", "[2:0/0]"},
		{"no such db", filter.Options{DBs: []int{5}}, "[]", "[]"},
		{"match", filter.Options{Match: "user:*"}, "[0/user:1 0/user:2 2/user:3:hash:1]", "[0:0/0 2:0/0]"},
		{"match class", filter.Options{Match: "user:[^2]"}, "[0/user:1 2/user:3:hash:1]", "[0:0/0 2:0/0]"},
		{"type", filter.Options{Types: []record.Type{record.Set, record.List}}, "[0/tags:set:2 2/list:list:1]", "[0:0/0 2:0/0]"},
		{"drop expired", filter.Options{DropExpired: true, Now: now}, "[0/user:1 0/tags:set:2 2/user:3:hash:1 2/list:list:1]", "[0:0/0 2:0/0]"},
		{"all together", filter.Options{DBs: []int{0, 2}, Match: "*s*", Types: []record.Type{record.Set, record.Hash}, DropExpired: true, Now: now},
			"[0/tags:set:2 2/user:3:hash:1]", "[0:0/0 2:0/0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			f, err := filter.New(&r, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			feed(t, f)
			if got := fmt.Sprint(r.keys); got != tc.keys {
				t.Errorf("kept %s, want %s", got, tc.keys)
			}
			if got := fmt.Sprint(r.begin); got != tc.begin {
				t.Errorf("BeginDB %s, want %s", got, tc.begin)
			}
			if st := f.Stats(); st.Kept+st.Dropped != 5 {
				t.Errorf("stats %+v", st)
			}
		})
	}
}

func TestSample(t *testing.T) {
	const n = 20000
	run := func(opts filter.Options, order []int) map[string]bool {
		var r recorder
		f, err := filter.New(&r, opts)
		if err != nil {
			t.Fatal(err)
		}
		f.BeginDB(0, record.Counts{})
		for _, i := range order {
			f.Begin(&record.Header{Key: fmt.Appendf(nil, "key%d", i), Type: record.String})
		}
		kept := map[string]bool{}
		for _, k := range r.keys {
			kept[k] = true
		}
		return kept
	}
	fwd, back := make([]int, n), make([]int, n)
	for i := range n {
		fwd[i], back[i] = i, n-1-i
	}
	for _, frac := range []float64{0.01, 0.1, 0.5, 1} {
		a := run(filter.Options{Sample: frac, Seed: 7}, fwd)
		b := run(filter.Options{Sample: frac, Seed: 7}, back)
		c := run(filter.Options{Sample: frac, Seed: 8}, fwd)
		want := frac * n
		if got := float64(len(a)); got < want*0.85-10 || got > want*1.15+10 {
			t.Errorf("sample %v kept %d of %d", frac, len(a), n)
		}
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("sample %v: the order of the keys changed the sample", frac)
		}
		if frac < 1 && fmt.Sprint(a) == fmt.Sprint(c) {
			t.Errorf("sample %v: seeds 7 and 8 kept the same keys", frac)
		}
	}
}

// TestNewErrors: New and Check refuse the same bad options, and Check takes good ones.
func TestNewErrors(t *testing.T) {
	if err := (filter.Options{DBs: []int{0, record.MaxDB}, Types: []record.Type{record.Hash}, Sample: 1}).Check(); err != nil {
		t.Errorf("good options: %v", err)
	}
	for _, opts := range []filter.Options{
		{Sample: -0.1}, {Sample: 1.5}, {DBs: []int{-1}}, {Types: []record.Type{"blob"}}, {Types: []record.Type{""}},
	} {
		if _, err := filter.New(&recorder{}, opts); !errors.Is(err, filter.ErrBadOption) {
			t.Errorf("%+v: got %v, want ErrBadOption", opts, err)
		}
		if err := opts.Check(); !errors.Is(err, filter.ErrBadOption) {
			t.Errorf("%+v: Check gave %v, want ErrBadOption", opts, err)
		}
	}
}

// TestFilterDropsWholeKeys: a key the options refuse goes with its members and its End, a
// stream's entries and groups included, and the next key passes whole.
func TestFilterDropsWholeKeys(t *testing.T) {
	var r record.Recorder
	f, err := filter.New(&r, filter.Options{Match: "k*"})
	if err != nil {
		t.Fatal(err)
	}
	recs := record.Records{
		{Key: []byte("s"), Type: record.Stream, Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
			Stream: record.StreamTail{Groups: []record.StreamGroup{{Name: []byte("g")}}}},
		{Key: []byte("k"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}},
		{Key: []byte("x"), Type: record.Set, Members: []record.Member{{Name: []byte("m")}}},
		{Key: []byte("k2"), Type: record.String, Value: []byte("v")},
	}
	if err := recs.WriteTo(t.Context(), f); err != nil {
		t.Fatal(err)
	}
	want := record.Records{recs[1], recs[3]}
	if !reflect.DeepEqual(record.Records(r.Records), want) {
		t.Errorf("passed %+v, want %+v", r.Records, want)
	}
	if st := f.Stats(); st.Kept != 2 || st.Dropped != 2 {
		t.Errorf("stats %+v, want 2 kept and 2 dropped", st)
	}
}

// TestModuleTypes keeps module values by module type name: "module:NAME" narrows "module"
// to one module type, "module" alone keeps all, and other types pass as Types says.
func TestModuleTypes(t *testing.T) {
	id := func(name string, encver uint64) uint64 {
		v, err := record.ModuleID(name, encver)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	recs := []record.Record{
		{Key: []byte("json"), Type: record.Module, ModuleID: id("ReJSON-RL", 3), Value: []byte{2, 1, 0}},
		{Key: []byte("bloom"), Type: record.Module, ModuleID: id("MBbloom--", 4), Value: []byte{2, 1, 0}},
		{Key: []byte("json2"), Type: record.Module, ModuleID: id("ReJSON-RL", 1), Value: []byte{2, 1, 0}},
		{Key: []byte("s"), Type: record.String, Value: []byte("v")},
	}
	cases := []struct {
		types []string
		want  string
	}{
		{nil, "[json bloom json2 s]"},
		{[]string{"module"}, "[json bloom json2]"},
		{[]string{"module:ReJSON-RL"}, "[json json2]"},
		{[]string{"module:MBbloom--", "string"}, "[bloom s]"},
		{[]string{"module:ReJSON-RL", "module"}, "[json bloom json2]"},
		{[]string{"module", "module:ReJSON-RL"}, "[json bloom json2]"},
		{[]string{"module:ReJSON-RL", "module:MBbloom--"}, "[json bloom json2]"},
		{[]string{"module:TSDB-TYPE"}, "[]"},
		{[]string{"string"}, "[s]"},
	}
	for _, c := range cases {
		var opts filter.Options
		for _, s := range c.types {
			if err := opts.AddType(s); err != nil {
				t.Fatal(err)
			}
		}
		var got record.Recorder
		f, err := filter.New(&got, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.BeginDB(0, record.Counts{}); err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			if err := recs[i].WriteTo(f); err != nil {
				t.Fatal(err)
			}
		}
		keys := []string{}
		for _, r := range got.Records {
			keys = append(keys, string(r.Key))
		}
		if s := fmt.Sprint(keys); s != c.want {
			t.Errorf("%q: kept %s, want %s", c.types, s, c.want)
		}
	}
	for _, bad := range []string{"module:json", "module:", "blob"} {
		var opts filter.Options
		if err := opts.AddType(bad); !errors.Is(err, filter.ErrBadOption) {
			t.Errorf("%q: %v, want ErrBadOption", bad, err)
		}
	}
	if _, err := filter.New(&recorder{}, filter.Options{Modules: []string{"short"}}); !errors.Is(err, filter.ErrBadOption) {
		t.Errorf("Modules short: %v", err)
	}
}

// AddType reads the types as --type names them: "module:NAME" keeps the values of one module
// type.
func ExampleOptions_AddType() {
	var opts filter.Options
	for _, t := range []string{"hash", "module:ReJSON-RL"} {
		if err := opts.AddType(t); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(opts.Types, opts.Modules)
	fmt.Println(opts.AddType("module:json"))
	// Output:
	// [hash module] [ReJSON-RL]
	// filter: invalid option: record: invalid module type name (want 9 characters of A-Z, a-z, 0-9, - and _): "json"
}

// AddTypes reads repeated flags, each a type or a list of them.
func ExampleOptions_AddTypes() {
	var opts filter.Options
	fmt.Println(opts.AddTypes("hash, zset", "string"), opts.Types)
	fmt.Println(opts.AddTypes("list,"))
	// Output:
	// <nil> [hash zset string]
	// filter: invalid option: record: unknown type "" (known: string, list, set, zset, hash, stream, module, module:NAME)
}
