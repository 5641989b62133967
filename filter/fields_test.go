package filter_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/record"
)

// fieldSink records hashes with field TTLs as text, and fails when a hash is not opened as
// one with field TTLs or brings another number of fields than it declared.
type fieldSink struct {
	record.Discard
	dbs    []int
	out    []string
	n      uint64
	fields []string
}

func (s *fieldSink) BeginDB(db int, _ record.Counts) error {
	s.dbs = append(s.dbs, db)
	return nil
}

func (s *fieldSink) Begin(h *record.Header) error {
	if !h.HasFieldTTLs() {
		return fmt.Errorf("%s: %+v is not a hash with field TTLs", h.Key, h)
	}
	s.out = append(s.out, fmt.Sprintf("%s n=%d exp=%d min=%d", h.Key, h.Len, h.ExpireAtMS, h.MinFieldExpireAtMS))
	s.n, s.fields = h.Len, nil
	return nil
}

func (s *fieldSink) Add(m *record.Member) error {
	s.fields = append(s.fields, fmt.Sprintf("%s=%s@%d", m.Name, m.Value, m.ExpireAtMS))
	return nil
}

func (s *fieldSink) End(*record.StreamTail) error {
	if uint64(len(s.fields)) != s.n {
		return fmt.Errorf("%d fields, %d declared", len(s.fields), s.n)
	}
	s.out = append(s.out, strings.Join(s.fields, " "))
	return nil
}

// addField adds a field with its expiry to s.
func addField(s record.Sink, name, value string, exp int64) error {
	return s.Add(&record.Member{Name: []byte(name), Value: []byte(value), ExpireAtMS: exp})
}

type field struct {
	name string
	exp  int64
}

// TestDropExpiredFields: fields expired at Now (at or before) are dropped and counted, the
// hash passed on with the count and smallest expiry of those left, in their order; a hash
// with none left is dropped as a key and counted (issue 22, item 6).
func TestDropExpiredFields(t *testing.T) {
	n := now.UnixMilli()
	hash := []field{{"a", n + 10}, {"b", n - 5}, {"c", 0}, {"d", n}, {"e", n + 5}}
	cases := []struct {
		name   string
		opts   filter.Options
		fields []field
		min    int64
		want   string
		stats  filter.Stats
	}{
		{"some expired", filter.Options{DropExpiredFields: true, Now: now}, hash, n - 5,
			fmt.Sprintf("[h n=3 exp=0 min=%d a=va@%d c=vc@0 e=ve@%d]", n+5, n+10, n+5), filter.Stats{Kept: 1, ExpiredFields: 2}},
		{"--drop-expired implies it", filter.Options{DropExpired: true, Now: now}, hash, n - 5,
			fmt.Sprintf("[h n=3 exp=0 min=%d a=va@%d c=vc@0 e=ve@%d]", n+5, n+10, n+5), filter.Stats{Kept: 1, ExpiredFields: 2}},
		{"off", filter.Options{Now: now}, hash[:2], n - 5,
			fmt.Sprintf("[h n=2 exp=0 min=%d a=va@%d b=vb@%d]", n-5, n+10, n-5), filter.Stats{Kept: 1}},
		{"none expired", filter.Options{DropExpiredFields: true, Now: now}, []field{{"a", n + 1}, {"c", 0}}, n + 1,
			fmt.Sprintf("[h n=2 exp=0 min=%d a=va@%d c=vc@0]", n+1, n+1), filter.Stats{Kept: 1}},
		{"the last left has no TTL", filter.Options{DropExpiredFields: true, Now: now}, []field{{"b", n - 1}, {"c", 0}}, n - 1,
			"[h n=1 exp=0 min=0 c=vc@0]", filter.Stats{Kept: 1, ExpiredFields: 1}},
		{"all expired", filter.Options{DropExpiredFields: true, Now: now}, []field{{"b", n - 1}, {"d", n}}, n - 1,
			"[]", filter.Stats{Dropped: 1, ExpiredFields: 2, EmptiedHashes: 1}},
		{"filtered out by another option", filter.Options{DropExpiredFields: true, Now: now, Match: "x*"}, hash, n - 5,
			"[]", filter.Stats{Dropped: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s fieldSink
			f, err := filter.New(&s, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if on := tc.opts.DropExpiredFields || tc.opts.DropExpired; on && !tc.opts.Active() {
				t.Fatal("not active")
			}
			f.BeginDB(3, record.Counts{})
			if err := f.Begin(&record.Header{Key: []byte("h"), Type: record.Hash, Len: uint64(len(tc.fields)), MinFieldExpireAtMS: tc.min}); err != nil {
				t.Fatal(err)
			}
			for _, fl := range tc.fields {
				if err := addField(f, fl.name, "v"+fl.name, fl.exp); err != nil {
					t.Fatal(err)
				}
			}
			if err := f.End(nil); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(s.out); got != tc.want {
				t.Errorf("got %s\nwant %s", got, tc.want)
			}
			if st := f.Stats(); st != tc.stats {
				t.Errorf("stats %+v, want %+v", st, tc.stats)
			}
			if kept := tc.want != "[]"; kept != (len(s.dbs) == 1) {
				t.Errorf("BeginDB %v", s.dbs)
			}
		})
	}
}

// TestDropExpiredFieldsLarge: a hash past the memory limit is held in a temporary file in
// $TMPDIR, removed at its end, and comes back whole and in order.
func TestDropExpiredFieldsLarge(t *testing.T) {
	defer filter.SetMaxHeldMem(1 << 10)()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	n := now.UnixMilli()
	var s fieldSink
	f, err := filter.New(&s, filter.Options{DropExpiredFields: true, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	f.BeginDB(0, record.Counts{})
	const fields = 5000
	f.Begin(&record.Header{Key: []byte("big"), Type: record.Hash, Len: fields, MinFieldExpireAtMS: n - 1})
	var want []string
	for i := range fields {
		exp := n + int64(i)
		if i%3 == 0 {
			exp = n - 1
		}
		name, value := fmt.Sprint("field", i), strings.Repeat("v", i%50)
		if err := addField(f, name, value, exp); err != nil {
			t.Fatal(err)
		}
		if i%3 != 0 {
			want = append(want, fmt.Sprintf("%s=%s@%d", name, value, exp))
		}
		if i == fields/2 {
			if m, _ := filepath.Glob(filepath.Join(tmp, "rdbgen-fields-*")); len(m) != 1 {
				t.Fatalf("held in %v, want one temporary file", m)
			}
		}
	}
	if err := f.End(nil); err != nil {
		t.Fatal(err)
	}
	if len(s.out) != 2 || s.out[0] != fmt.Sprintf("big n=%d exp=0 min=%d", len(want), n+1) || s.out[1] != strings.Join(want, " ") {
		t.Fatalf("got %.200q", s.out)
	}
	if st := f.Stats(); st.ExpiredFields != (fields+2)/3 {
		t.Fatalf("stats %+v", st)
	}
	if es, _ := os.ReadDir(tmp); len(es) != 0 {
		t.Fatalf("left %v in $TMPDIR", es)
	}
}
