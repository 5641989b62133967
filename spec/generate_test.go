package spec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

const base = 1_800_000_000_000 // 2027-01-15, the base time of these tests

const everything = `seed: 7
families:
  - name: users
    key: "user:{id}"
    count: 300
    type: hash
    ttl: 1h
    ttl_jitter: 10m
    fields:
      id: {id: {}}
      name: {fake: name}
      email: {concat: [{fake: first_name}, ., {id: {}}, "@example.com"]}
      age: {int: {min: 18, max: 99}}
      balance: {float: {min: -100, max: 100, decimals: 2}}
      plan: {choice: {values: [free, pro], weights: [3, 1]}}
      token: {uuid: {}}
      seen: {timestamp: {from: -24h, to: 0s, format: unix_ms}}
      bio: {string: 5-20}
      doc: {json: {n: {sequence: {}}, tags: [{fake: word}, x]}}
  - name: sessions
    key: "s:{uuid}"
    count: 200
    db: 2
    value: {key: {}}
  - name: queue
    key: "q:{id}"
    count: 20
    type: list
    members: {count: 1-30, value: {choice: [a, b, c]}}
  - name: tags
    key: "t:{id}"
    count: 20
    type: set
    members: {count: 40-50, value: {int: {min: 1, max: 60}}}
  - name: board
    key: "b:{id}"
    count: 10
    type: zset
    members: {count: 200, value: {concat: [m, {sequence: {}}]}, score: {float: {min: 0, max: 1000}}}
  - name: all users
    key: users
    type: set
    members: {of_family: users}
  - name: wide
    key: "w:{id}"
    count: 3
    type: hash
    members: {count: 600, field: {string: 8}, value: {int: {min: 0, max: 9}}}
`

func mustParse(t testing.TB, src string, p Params) *Spec {
	t.Helper()
	s, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetParams(p); err != nil {
		t.Fatal(err)
	}
	return s
}

// recorder is a Sink that keeps every record, with the DB sections it saw.
type recorder struct {
	record.Recorder
	dbs  []int
	info []record.Counts
}

func (r *recorder) BeginDB(db int, info record.Counts) error {
	r.dbs = append(r.dbs, db)
	r.info = append(r.info, info)
	return r.Recorder.BeginDB(db, info)
}

// TestGenerateMatchesRecord checks that the streamed records are those Family.Record
// recomputes one by one, in the documented order, with the right DB sections.
func TestGenerateMatchesRecord(t *testing.T) {
	s := mustParse(t, everything, Params{Seed: 7, BaseTimeMS: base})
	var r recorder
	if err := s.WriteTo(context.Background(), &r); err != nil {
		t.Fatal(err)
	}
	if uint64(len(r.Records)) != s.Keys() {
		t.Fatalf("records %d, want %d", len(r.Records), s.Keys())
	}
	if !reflect.DeepEqual(r.dbs, []int{0, 2}) {
		t.Fatalf("db sections %v, want [0 2]", r.dbs)
	}
	if r.info[0] != (record.Counts{Keys: 300 + 20 + 20 + 10 + 1 + 3, Expires: 300}) || r.info[1] != (record.Counts{Keys: 200}) {
		t.Fatalf("db info %+v", r.info)
	}
	k := 0
	_, by := s.DBs()
	for _, db := range []int{0, 2} {
		for _, f := range by[db] {
			for i := range f.Keys() {
				want, err := f.Record(i)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(r.Records[k], want) {
					t.Fatalf("%s record %d: streamed %+v, recomputed %+v", f.Name, i, r.Records[k], want)
				}
				if err := want.Check(); err != nil {
					t.Fatalf("%s record %d: %v", f.Name, i, err)
				}
				k++
			}
		}
	}
}

func TestRecordContents(t *testing.T) {
	s := mustParse(t, everything, Params{Seed: 7, BaseTimeMS: base})
	users := s.Family("users")
	r, _ := users.Record(4)
	if string(r.Key) != "user:5" || r.Type != record.Hash || len(r.Members) != 10 {
		t.Fatalf("record %+v", r)
	}
	if exp := r.ExpireAtMS - base; exp < 50*60_000 || exp > 70*60_000 {
		t.Fatalf("expiry %d ms from base, want 1h ± 10m", exp)
	}
	got := map[string]string{}
	for _, m := range r.Members {
		got[string(m.Name)] = string(m.Value)
	}
	if got["id"] != "5" || !strings.HasSuffix(got["email"], ".5@example.com") || len(got["token"]) != 36 {
		t.Fatalf("fields %v", got)
	}
	if !strings.HasPrefix(got["doc"], `{"n":5,"tags":["`) || !strings.HasSuffix(got["doc"], `","x"]}`) {
		t.Fatalf("doc %s", got["doc"])
	}
	all, _ := s.Family("all users").Record(0)
	if len(all.Members) != 300 || string(all.Members[0].Name) != "1" || string(all.Members[299].Name) != "300" {
		t.Fatalf("all users: %d members", len(all.Members))
	}
	for i := range uint64(20) {
		tags, _ := s.Family("tags").Record(i)
		seen := map[string]bool{}
		for _, m := range tags.Members {
			if seen[string(m.Name)] {
				t.Fatalf("set %s repeats %s", tags.Key, m.Name)
			}
			seen[string(m.Name)] = true
		}
		if n := len(tags.Members); n < 40 || n > 50 {
			t.Fatalf("set of %d members", n)
		}
	}
	wide, _ := s.Family("wide").Record(1)
	if len(wide.Members) != 600 {
		t.Fatalf("wide hash of %d fields", len(wide.Members))
	}
}

// TestValuesDependOnSeedFamilyAndIndexOnly: adding a family or changing another family's
// count leaves a family's values alone; another seed changes them.
func TestValuesDependOnSeedFamilyAndIndexOnly(t *testing.T) {
	const one = "families:\n  - name: f\n    key: \"k{id}\"\n    count: 50\n    value: {fake: sentence}\n"
	const two = "families:\n  - key: \"other{id}\"\n    count: 7\n    value: {uuid: {}}\n  - name: f\n    key: \"k{id}\"\n    count: 80\n    value: {fake: sentence}\n"
	a := mustParse(t, one, Params{Seed: 3})
	b := mustParse(t, two, Params{Seed: 3})
	c := mustParse(t, one, Params{Seed: 4})
	for i := range uint64(50) {
		ra, _ := a.Family("f").Record(i)
		rb, _ := b.Family("f").Record(i)
		rc, _ := c.Family("f").Record(i)
		if !bytes.Equal(ra.Value, rb.Value) {
			t.Fatalf("record %d: %q in one spec, %q in the other", i, ra.Value, rb.Value)
		}
		if bytes.Equal(ra.Value, rc.Value) {
			t.Fatalf("record %d: seed 4 gave seed 3's %q", i, ra.Value)
		}
	}
}

func TestUUIDKeys(t *testing.T) {
	s := mustParse(t, "families:\n  - key: \"s:{uuid}:x\"\n    count: 5000\n    value: 1\n", Params{Seed: 9})
	f := s.Families[0]
	seen := map[string]bool{}
	for i := range f.Keys() {
		k := f.AppendKey(nil, i)
		if seen[string(k)] {
			t.Fatalf("key %s twice", k)
		}
		seen[string(k)] = true
		if !f.Contains(k) {
			t.Fatalf("Contains(%s) = false", k)
		}
		if k[2+14] != '4' {
			t.Fatalf("%s is not a version 4 UUID", k)
		}
	}
	for _, k := range []string{"s:00000000-0000-4000-8000-000000000000:x", "s:x", "", "s:" + strings.Repeat("a", 36) + ":x"} {
		if f.Contains([]byte(k)) {
			t.Fatalf("Contains(%q) = true", k)
		}
	}
	// A key of record 5000, past the count, is not in the family.
	s2 := mustParse(t, "families:\n  - key: \"s:{uuid}:x\"\n    count: 5001\n    value: 1\n", Params{Seed: 9})
	if k := s2.Families[0].AppendKey(nil, 5000); f.Contains(k) {
		t.Fatalf("Contains(%s) of record 5000 = true", k)
	}
	for _, x := range []uint64{0, 1, 12345, mask62, 1 << 61} {
		if got := unperm62(perm62(x, 77), 77); got != x {
			t.Fatalf("unperm62(perm62(%d)) = %d", x, got)
		}
	}
}

func TestTooFewDistinctMembers(t *testing.T) {
	s := mustParse(t, "families:\n  - key: a\n    type: set\n    members: {count: 10, value: {int: {min: 1, max: 5}}}\n", Params{Seed: 1})
	if _, err := s.Families[0].Record(0); !errors.Is(err, ErrTooFewDistinct) {
		t.Fatalf("got %v, want ErrTooFewDistinct", err)
	}
}

func TestCountScale(t *testing.T) {
	src := "families:\n  - key: \"a{id}\"\n    count: 1000\n    value: x\n  - key: \"b{id}\"\n    count: 3\n    value: x\n  - key: c\n    type: set\n    members: {of_family: \"a{id}\"}\n"
	s := mustParse(t, src, Params{Seed: 1, CountScale: 0.01})
	if got := []uint64{s.Families[0].Keys(), s.Families[1].Keys(), s.Families[2].Keys()}; !reflect.DeepEqual(got, []uint64{10, 1, 1}) {
		t.Fatalf("scaled counts %v", got)
	}
	if r, _ := s.Families[2].Record(0); len(r.Members) != 10 {
		t.Fatalf("the set of a's ids has %d members, want 10", len(r.Members))
	}
	if err := s.SetParams(Params{CountScale: -1}); err == nil {
		t.Fatal("negative scale accepted")
	}
	// Scaling up can make families meet: checked again.
	src = "families:\n  - key: \"a{id}\"\n    count: 10\n    value: x\n  - key: \"a{id}\"\n    name: more\n    id_start: 21\n    count: 10\n    value: x\n"
	s = mustParse(t, src, Params{})
	if err := s.SetParams(Params{CountScale: 3}); err == nil || !strings.Contains(err.Error(), "both make the key") {
		t.Fatalf("got %v", err)
	}
}

func TestGenerateNeedsBaseTime(t *testing.T) {
	tests := []struct {
		name, src string
		want      error
	}{
		{"ttl", "families:\n  - key: a\n    ttl: 1m\n    value: x\n", ErrNoBaseTime},
		{"relative timestamp", "families:\n  - key: a\n    value: {timestamp: {from: -1h, to: 0s}}\n", ErrNoBaseTime},
		{"timestamp of the base time", "families:\n  - key: a\n    value: {timestamp: {}}\n", ErrNoBaseTime},
		{"relative timestamp in a hash", "families:\n  - key: a\n    type: hash\n    fields:\n      at: {timestamp: {from: -1h, to: 0s}}\n", ErrNoBaseTime},
		{"absolute timestamp", "families:\n  - key: a\n    value: {timestamp: {from: \"2024-01-01T00:00:00Z\", to: \"2024-02-01T00:00:00Z\"}}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.src, Params{Seed: 1})
			if err := s.WriteTo(context.Background(), &recorder{}); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestGenerateCancelled(t *testing.T) {
	s := mustParse(t, "families:\n  - key: \"a{id}\"\n    count: 100000\n    value: x\n", Params{Seed: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.WriteTo(ctx, &recorder{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// TestEstimate checks that small families are estimated exactly, and large ones closely.
func TestEstimate(t *testing.T) {
	s := mustParse(t, everything, Params{Seed: 7, BaseTimeMS: base})
	for _, target := range []string{"redis-5.0", "redis-7.2"} {
		opts := encoder.Options{Target: target}
		est, err := s.Estimate(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		size := fileSize(t, s, opts)
		if est.Bytes != size {
			t.Fatalf("%s: estimate %d bytes, file %d", target, est.Bytes, size)
		}
	}
	big := mustParse(t, "families:\n  - key: \"k{id}\"\n    count: 100000\n    value: {string: 10-90}\n", Params{Seed: 1})
	est, err := big.Estimate(context.Background(), encoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	size := fileSize(t, big, encoder.Options{})
	if diff := float64(est.Bytes-size) / float64(size); diff > 0.02 || diff < -0.02 {
		t.Fatalf("estimate %d bytes, file %d: off by %.1f%%", est.Bytes, size, diff*100)
	}
}

func fileSize(t *testing.T, s *Spec, opts encoder.Options) int64 {
	t.Helper()
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.WriteTo(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return int64(buf.Len())
}

func ExampleParse() {
	src := []byte(`families:
  - key: "user:{id}"
    count: 3
    type: hash
    fields:
      id: {id: {}}
      plan: {choice: [free, pro]}
`)
	s, err := Parse("users.yaml", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := s.Families[0].Record(2)
	fmt.Printf("%s %s %s=%s\n", r.Key, r.Type, r.Members[0].Name, r.Members[0].Value)
	_, err = Parse("bad.yaml", []byte("families:\n  - key: \"user:{id}\"\n    count: ten\n"))
	fmt.Println(err)
	// Output:
	// user:3 hash id=3
	// bad.yaml:3:12: families[0].count: want a whole number of at least 0, got "ten"
}
