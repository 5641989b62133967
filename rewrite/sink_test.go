package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// recorder is a Sink that keeps every record written to it.
type recorder = record.Recorder

// through writes recs through a Sink of rules into a recorder and returns what came out.
func through(t *testing.T, rules string, recs ...record.Record) ([]record.Record, error) {
	t.Helper()
	rs, err := Parse("rules.yaml", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	var out recorder
	s, err := New(&out, rs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.BeginDB(0, record.Counts{}); err != nil {
		return nil, err
	}
	for k := range recs {
		if err := recs[k].WriteTo(s); err != nil {
			return out.Records, err
		}
	}
	return out.Records, nil
}

func str(key, value string, exp int64) record.Record {
	return record.Record{Key: []byte(key), Type: record.String, Value: []byte(value), ExpireAtMS: exp}
}

func coll(t record.Type, key string, exp int64, members ...string) record.Record {
	r := record.Record{Key: []byte(key), Type: t, ExpireAtMS: exp}
	for k, m := range members {
		switch t {
		case record.Hash:
			if k%2 == 1 {
				r.Members = append(r.Members, record.Member{Name: []byte(members[k-1]), Value: []byte(m)})
			}
		case record.ZSet:
			r.Members = append(r.Members, record.Member{Name: []byte(m), Score: float64(k) + 0.5})
		default:
			r.Members = append(r.Members, record.Member{Name: []byte(m)})
		}
	}
	return r
}

var (
	uuidRE  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	emailRE = regexp.MustCompile(`^[^@ ]+@[^@ ]+\.[a-z]+$`)
	tokenRE = regexp.MustCompile(`^[A-Za-z0-9]{32}$`)
)

func TestSinkRewrites(t *testing.T) {
	rules := `
seed: 7
rules:
  - key: "user:*"
    type: hash
    rename: {uuid: {}}
    fields:
      email: {fake: email}
      "*token": {string: 32}
  - key: "users:*"
    members: {uuid: {}}
  - key: "session:*"
    value: {uuid: {}}
  - key: "mail:*"
    type: string
    rename: {fake: email}
  - key: "emails"
    members: {fake: email}
  - key: "profile:*"
    field_names: {concat: ["f-", {string: 12}]}
`
	tests := []struct {
		name  string
		in    record.Record
		check func(t *testing.T, in, out record.Record)
	}{
		{"unmatched string passes", str("config:x", "alice@example.com", 0), same},
		{"unmatched type passes", coll(record.Set, "user:1", 0, "a", "b"), same},
		{"string value", str("session:abc", "42", 99), func(t *testing.T, in, out record.Record) {
			want(t, string(out.Key) == "session:abc", "key %q changed", out.Key)
			want(t, uuidRE.Match(out.Value), "value %q is not a uuid", out.Value)
		}},
		{"key rename", str("mail:alice@example.com", "1", 0), func(t *testing.T, in, out record.Record) {
			want(t, bytes.HasPrefix(out.Key, []byte("mail:")) && emailRE.Match(out.Key[5:]), "key %q", out.Key)
			want(t, string(out.Value) == "1", "value %q changed", out.Value)
		}},
		{"hash fields by glob", coll(record.Hash, "user:1", 1234, "email", "alice@example.com", "api_token", "secret", "plan", "gold"), func(t *testing.T, in, out record.Record) {
			want(t, uuidRE.Match(out.Key[5:]), "key %q", out.Key)
			want(t, len(out.Members) == 3, "%d fields", len(out.Members))
			want(t, emailRE.Match(out.Members[0].Value) && string(out.Members[0].Value) != "alice@example.com", "email %q", out.Members[0].Value)
			want(t, tokenRE.Match(out.Members[1].Value), "token %q", out.Members[1].Value)
			want(t, string(out.Members[2].Value) == "gold", "plan %q changed", out.Members[2].Value)
			for k := range out.Members {
				want(t, bytes.Equal(out.Members[k].Name, in.Members[k].Name), "field name %q changed", out.Members[k].Name)
			}
		}},
		{"set members", coll(record.Set, "users:all", 0, "1", "2", "3"), func(t *testing.T, in, out record.Record) {
			for _, m := range out.Members {
				want(t, uuidRE.Match(m.Name), "member %q", m.Name)
			}
		}},
		{"zset keeps scores", coll(record.ZSet, "users:rank", 0, "1", "2"), func(t *testing.T, in, out record.Record) {
			for k, m := range out.Members {
				want(t, uuidRE.Match(m.Name) && m.Score == in.Members[k].Score, "member %q %v", m.Name, m.Score)
			}
		}},
		{"list elements may repeat", coll(record.List, "emails", 0, "a@x.io", "a@x.io", "b@x.io"), func(t *testing.T, in, out record.Record) {
			want(t, bytes.Equal(out.Members[0].Name, out.Members[1].Name), "one input, two outputs: %q %q", out.Members[0].Name, out.Members[1].Name)
			want(t, !bytes.Equal(out.Members[0].Name, out.Members[2].Name), "two inputs, one output")
		}},
		{"field names", coll(record.Hash, "profile:1", 0, "alice@example.com", "x", "bob@example.com", "y"), func(t *testing.T, in, out record.Record) {
			for k, m := range out.Members {
				want(t, bytes.HasPrefix(m.Name, []byte("f-")) && len(m.Name) == 14, "field %q", m.Name)
				want(t, bytes.Equal(m.Value, in.Members[k].Value), "value %q changed", m.Value)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := through(t, rules, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != 1 {
				t.Fatalf("%d records out", len(out))
			}
			o := out[0]
			if o.Type != tt.in.Type || o.ExpireAtMS != tt.in.ExpireAtMS || len(o.Members) != len(tt.in.Members) {
				t.Fatalf("type, expiry or count changed: %+v", o)
			}
			tt.check(t, tt.in, o)
		})
	}
}

func same(t *testing.T, in, out record.Record) {
	t.Helper()
	if fmt.Sprint(in) != fmt.Sprint(out) {
		t.Errorf("got %+v, want it unchanged", out)
	}
}

func want(t *testing.T, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Errorf(format, args...)
	}
}

func TestSinkKeepsReferences(t *testing.T) {
	rules := `
rules:
  - key: "user:*"
    rename: {uuid: {}}
    fields: {email: {fake: email}}
  - key: "users"
    members: {uuid: {}}
  - key: "by-email:*"
    rename: {fake: email}
    value: {uuid: {}}
`
	out, err := through(t, rules,
		coll(record.Hash, "user:17", 0, "email", "ann@corp.example"),
		coll(record.Set, "users", 0, "17"),
		str("by-email:ann@corp.example", "17", 0),
	)
	if err != nil {
		t.Fatal(err)
	}
	user, set, byEmail := out[0], out[1], out[2]
	if string(user.Key) != "user:"+string(set.Members[0].Name) {
		t.Errorf("set member %q does not name %q", set.Members[0].Name, user.Key)
	}
	if string(user.Key) != "user:"+string(byEmail.Value) {
		t.Errorf("by-email value %q does not name %q", byEmail.Value, user.Key)
	}
	if string(byEmail.Key) != "by-email:"+string(user.Members[0].Value) {
		t.Errorf("by-email key %q does not hold the user's email %q", byEmail.Key, user.Members[0].Value)
	}
}

func TestSinkKeyNamesInValues(t *testing.T) {
	rules := `
rules:
  - key: "user:email:*"    # before user:*, which matches these keys too
    rename: {fake: email}
  - key: "user:*:idx"
    rename: {uuid: {}}
    members_are_keys: true
  - key: "user:*"
    type: hash
    rename: {uuid: {}}
    fields: {email: {fake: email}}
  - key: "last-login"
    value_is_key: true
`
	out, err := through(t, rules,
		coll(record.Hash, "user:17", 0, "email", "ann@corp.example"),
		coll(record.Set, "user:email:ann@corp.example", 0, "17"),
		coll(record.Set, "user:17:idx", 0, "user:email:ann@corp.example", "other:key"),
		str("last-login", "user:17", 0),
	)
	if err != nil {
		t.Fatal(err)
	}
	user, index, idx, last := out[0], out[1], out[2], out[3]
	if string(index.Key) != "user:email:"+string(user.Members[0].Value) {
		t.Errorf("index key %q, user's email %q", index.Key, user.Members[0].Value)
	}
	if string(idx.Members[0].Name) != string(index.Key) || string(idx.Members[1].Name) != "other:key" {
		t.Errorf("idx members %q %q, want %q and other:key", idx.Members[0].Name, idx.Members[1].Name, index.Key)
	}
	if string(idx.Key) != string(user.Key)+":idx" {
		t.Errorf("idx key %q, user %q", idx.Key, user.Key)
	}
	if string(last.Value) != string(user.Key) {
		t.Errorf("last-login %q, want %q", last.Value, user.Key)
	}
}

func TestSinkDeterministic(t *testing.T) {
	rules := func(seed int) string {
		return fmt.Sprintf("seed: %d\nrules:\n  - key: '*'\n    value: {concat: [{fake: name}, ' ', {string: 8}]}\n", seed)
	}
	in := []record.Record{str("a", "x", 0), str("b", "y", 0), str("c", "x", 0)}
	run := func(seed int) []string {
		out, err := through(t, rules(seed), in...)
		if err != nil {
			t.Fatal(err)
		}
		var vals []string
		for _, o := range out {
			vals = append(vals, string(o.Value))
		}
		return vals
	}
	a, b, c := run(1), run(1), run(2)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("two runs differ: %q, %q", a, b)
	}
	if a[0] != a[2] || a[0] == a[1] {
		t.Errorf("same input gave %q and %q, other input %q", a[0], a[2], a[1])
	}
	if a[0] == c[0] {
		t.Errorf("seeds 1 and 2 both gave %q", a[0])
	}
}

func TestSinkCollision(t *testing.T) {
	rules := "rules:\n  - key: '*'\n    members: {choice: [a, b]}\n    field_names: {choice: [a, b]}\n"
	for _, in := range []record.Record{
		coll(record.Set, "tags", 0, "1", "2", "3"),
		coll(record.ZSet, "tags", 0, "1", "2", "3"),
		coll(record.Hash, "tags", 0, "1", "x", "2", "x", "3", "x"),
	} {
		_, err := through(t, rules, in)
		if !errors.Is(err, ErrCollision) {
			t.Fatalf("%s: got %v, want ErrCollision", in.Type, err)
		}
		if !bytes.Contains([]byte(err.Error()), []byte(`rewrite key "tags"`)) {
			t.Errorf("error %q does not name the key", err)
		}
	}
	// A list may hold one value twice.
	if _, err := through(t, rules, coll(record.List, "tags", 0, "1", "2", "3")); err != nil {
		t.Fatal(err)
	}
}

func TestSinkStickyError(t *testing.T) {
	rs, err := Parse("r.yaml", []byte("rules:\n  - key: '*'\n    members: {const: same}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(&recorder{}, rs)
	if err != nil {
		t.Fatal(err)
	}
	s.Begin(&record.Header{Key: []byte("k"), Type: record.Set, Len: 2})
	s.Add(&record.Member{Name: []byte("a")})
	first := s.Add(&record.Member{Name: []byte("b")})
	if !errors.Is(first, ErrCollision) {
		t.Fatalf("got %v", first)
	}
	if err := s.End(nil); err != first {
		t.Errorf("End returned %v, want the first error", err)
	}
	if err := s.Begin(&record.Header{Key: []byte("x"), Type: record.String, Value: []byte("y")}); err != first {
		t.Errorf("Begin of a string returned %v, want the first error", err)
	}
	if err := s.BeginDB(1, record.Counts{}); err != first {
		t.Errorf("BeginDB returned %v, want the first error", err)
	}
	if err := s.WriteFunction([]byte("#!lua name=l\n")); err != first {
		t.Errorf("WriteFunction returned %v, want the first error", err)
	}
}

func TestSinkStreams(t *testing.T) {
	rules := "rules:\n  - key: 'events'\n    fields: {email: {fake: email}, '*name': {fake: name}}\n"
	rs, err := Parse("r.yaml", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	var out record.Collector
	s, err := New(&out, rs)
	if err != nil {
		t.Fatal(err)
	}
	fields := [][]byte{[]byte("email"), []byte("ann@corp.example"), []byte("kind"), []byte("login"), []byte("full_name"), []byte("Ann Lee")}
	orig := bytes.Join(fields, nil)
	must(t, s.Begin(&record.Header{Key: []byte("events"), Type: record.Stream}))
	must(t, s.Add(&record.Member{ID: record.StreamID{Ms: 1, Seq: 0}, Fields: fields}))
	must(t, s.End(&record.StreamTail{Groups: []record.StreamGroup{{Name: []byte("g")}}}))
	if !bytes.Equal(bytes.Join(fields, nil), orig) {
		t.Error("the caller's fields were changed")
	}
	e := out.Rec.Members[0].Fields
	if !emailRE.Match(e[1]) || string(e[3]) != "login" || bytes.Equal(e[5], fields[5]) || string(e[0]) != "email" {
		t.Errorf("entry %q", e)
	}
	if len(out.Rec.Stream.Groups) != 1 {
		t.Errorf("groups %v", out.Rec.Stream.Groups)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestNewRefusesNil(t *testing.T) {
	rs, _ := Parse("r.yaml", []byte("rules:\n  - key: a\n    value: x\n"))
	if _, err := New(nil, rs); err == nil {
		t.Error("nil sink accepted")
	}
	if _, err := New(&recorder{}, nil); err == nil {
		t.Error("nil rules accepted")
	}
}

func BenchmarkSink(b *testing.B) {
	rs, err := Parse("r.yaml", []byte(exampleRules))
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(&recorder{}, rs)
	if err != nil {
		b.Fatal(err)
	}
	fields := [][]byte{[]byte("email"), []byte("ann@corp.example"), []byte("last_name"), []byte("Lee"), []byte("plan"), []byte("gold")}
	h := record.Header{Type: record.Hash, Len: 3}
	var m record.Member
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Key = fmt.Appendf(h.Key[:0], "user:%d", i)
		s.Begin(&h)
		for k := 0; k < len(fields); k += 2 {
			m.Name, m.Value = fields[k], fields[k+1]
			s.Add(&m)
		}
		if err := s.End(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSinkGolden pins the replacements of the example rules: a change of the hash, of the
// way generators draw or of gofakeit would give other values for the same seed, and dumps
// rewritten before and after would no longer agree.
func TestSinkGolden(t *testing.T) {
	out, err := through(t, exampleRules,
		coll(record.Hash, "user:42", 0, "email", "ann@corp.example", "first_name", "Ann", "token", "t0k3n", "plan", "gold"),
		coll(record.Set, "users:all", 0, "42", "43"),
		str("session:t0k3n", "42", 1700000000000),
		coll(record.List, "newsletter", 0, "ann@corp.example", "bob@corp.example"),
		coll(record.Hash, "profile:42", 0, "ann@corp.example", "1"),
		coll(record.Set, "user:42:idx", 0, "session:t0k3n"),
		str("current:x", "user:42", 0),
	)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, r := range out {
		fmt.Fprintf(&b, "%s %q", r.Type, r.Key)
		if r.Type == record.String {
			fmt.Fprintf(&b, " %q", r.Value)
		}
		for _, m := range r.Members {
			fmt.Fprintf(&b, " %q", m.Name)
			if r.Type == record.Hash {
				fmt.Fprintf(&b, "=%q", m.Value)
			}
		}
		b.WriteByte('\n')
	}
	golden := filepath.Join("testdata", "rewrite.golden.txt")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if b.String() != string(want) {
		t.Errorf("got\n%s\nwant\n%s", b.Bytes(), want)
	}
}

func TestSinkHashFieldTTL(t *testing.T) {
	rs, err := Parse("r.yaml", []byte("rules:\n  - key: 'h'\n    field_names: {uuid: {}}\n    fields: {'*': {fake: email}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var out record.Collector
	s, err := New(&out, rs)
	if err != nil {
		t.Fatal(err)
	}
	must(t, s.Begin(&record.Header{Key: []byte("h"), Type: record.Hash, Len: 2, ExpireAtMS: 5000, MinFieldExpireAtMS: 1000}))
	must(t, s.Add(&record.Member{Name: []byte("a"), Value: []byte("ann@corp.example"), ExpireAtMS: 1000}))
	must(t, s.Add(&record.Member{Name: []byte("b"), Value: []byte("bob@corp.example")}))
	must(t, s.End(nil))
	r := out.Rec
	if string(r.Key) != "h" || r.ExpireAtMS != 5000 || len(r.Members) != 2 {
		t.Fatalf("got %+v", r)
	}
	for k, m := range r.Members {
		if !uuidRE.Match(m.Name) || !emailRE.Match(m.Value) || m.ExpireAtMS != []int64{1000, 0}[k] {
			t.Errorf("field %d: %q=%q expiring %d", k, m.Name, m.Value, m.ExpireAtMS)
		}
	}
}

// BenchmarkFile writes 1,000 users (a hash of five fields, three of them rewritten, and a
// renamed key) and the set of their ids into an RDB file in memory, with and without the
// rewrite Sink in front of the encoder.
func BenchmarkFile(b *testing.B) {
	rs, err := Parse("r.yaml", []byte(exampleRules))
	if err != nil {
		b.Fatal(err)
	}
	var recs []record.Record
	ids := record.Record{Key: []byte("users:all"), Type: record.Set}
	for i := range 1000 {
		id := fmt.Sprint(i + 1)
		recs = append(recs, coll(record.Hash, "user:"+id, 0, "email", "user"+id+"@corp.example", "first_name", "Name"+id, "token", "tok-"+id, "plan", "gold", "created", "1700000000"))
		ids.Members = append(ids.Members, record.Member{Name: []byte(id)})
	}
	recs = append(recs, ids)
	for _, rewrite := range []bool{false, true} {
		b.Run(fmt.Sprintf("rewrite=%v", rewrite), func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "redis-7.0"})
				if err != nil {
					b.Fatal(err)
				}
				var sink record.Sink = w
				if rewrite {
					if sink, err = New(w, rs); err != nil {
						b.Fatal(err)
					}
				}
				must(b, sink.BeginDB(0, record.Counts{}))
				for k := range recs {
					must(b, recs[k].WriteTo(sink))
				}
				must(b, w.Close())
			}
			b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
		})
	}
}

// TestSinkModuleType: a rule of "type: module:NAME" renames the module values of that
// module type only; their serialized form passes untouched.
func TestSinkModuleType(t *testing.T) {
	mod := func(key, name string) record.Record {
		id, err := record.ModuleID(name, 2)
		if err != nil {
			t.Fatal(err)
		}
		return record.Record{Key: []byte(key), Type: record.Module, ModuleID: id, Value: []byte{2, 5, 0}}
	}
	rules := `
rules:
  - key: "doc:*"
    type: module:ReJSON-RL
    rename: {concat: ["j", {int: {min: 1, max: 1}}]}
`
	in := []record.Record{mod("doc:1", "ReJSON-RL"), mod("doc:2", "MBbloom--"), str("doc:3", "v", 0)}
	out, err := through(t, rules, in...)
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{string(out[0].Key), string(out[1].Key), string(out[2].Key)}
	if fmt.Sprint(keys) != "[doc:j1 doc:2 doc:3]" {
		t.Fatalf("keys %q", keys)
	}
	for k := range out {
		if !bytes.Equal(out[k].Value, in[k].Value) || out[k].ModuleID != in[k].ModuleID {
			t.Errorf("%s: value %v id %x, want %v %x", keys[k], out[k].Value, out[k].ModuleID, in[k].Value, in[k].ModuleID)
		}
	}
	rs, err := Parse("rules.yaml", []byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	if d := rs.Describe(); d.Rules[0].Type != "module:ReJSON-RL" {
		t.Errorf("described type %q", d.Rules[0].Type)
	}
}
