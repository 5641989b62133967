package dataset

import (
	"errors"
	"github.com/rdbgen/rdbgen/record"
	"strings"
	"testing"
)

func TestParseRange(t *testing.T) {
	tests := []struct {
		in   string
		want Range
		err  bool
	}{
		{"10", Range{10, 10}, false}, {"1-5", Range{1, 5}, false}, {"0", Range{0, 0}, false},
		{"", Range{}, true}, {"-5", Range{}, true}, {"5-", Range{}, true}, {"a", Range{}, true},
		{"1-2-3", Range{}, true}, {" 1", Range{}, true}, {"18446744073709551616", Range{}, true},
	}
	for _, tt := range tests {
		got, err := ParseRange(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseRange(%q) = %v, %v", tt.in, got, err)
		}
		if err != nil && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "MIN-MAX")) {
			t.Errorf("ParseRange(%q): unclear error %v", tt.in, err)
		}
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"10", "1-5", "0-0", "-", "9-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRange(s)
		if err != nil {
			return
		}
		back, err := ParseRange(r.String())
		if err != nil || back != r {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, r, r.String(), back, err)
		}
	})
}

func TestValidateMembers(t *testing.T) {
	ok := Config{Count: 10, KeyPrefix: "key", Type: record.Set, Members: Range{1, 5}}
	tests := []struct {
		name    string
		change  func(*Config)
		wantMsg string
	}{
		{"set", func(*Config) {}, ""},
		{"string with members", func(d *Config) { d.Type = record.String }, "go with a collection type"},
		{"old manifest", func(d *Config) { d.Type, d.Members = "", Range{} }, ""},
		{"unknown type", func(d *Config) { d.Type = "streams" }, `type "streams"`},
		{"no members", func(d *Config) { d.Members = Range{} }, "at least 1 member"},
		{"min above max", func(d *Config) { d.Members = Range{5, 1} }, "above the maximum"},
		{"too many", func(d *Config) { d.Members = Range{1, MaxMembers + 1} }, "at most"},
		{"random set too short", func(d *Config) { d.Value, d.ValueSize = ValueRandom, 10 }, "at least 11"},
		{"random set", func(d *Config) { d.Value, d.ValueSize = ValueRandom, 11 }, ""},
		{"random list short", func(d *Config) { d.Type, d.Value, d.ValueSize = record.List, ValueRandom, 1 }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ok
			tt.change(&d)
			err := d.Validate()
			if tt.wantMsg == "" && err != nil || tt.wantMsg != "" && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.wantMsg)) {
				t.Fatalf("got %v, want %q", err, tt.wantMsg)
			}
		})
	}
}

// TestMembersUniqueAndDeterministic checks what the encoder trusts the dataset for: set,
// sorted-set and hash members are unique within a key, whatever the mode, and every member is
// recomputed the same.
func TestMembersUniqueAndDeterministic(t *testing.T) {
	for _, typ := range []record.Type{record.Hash, record.Set, record.ZSet, record.List} {
		for _, mode := range []ValueMode{ValueSame, ValueRandom} {
			d := Config{Count: 20, Type: typ, Members: Range{1, 3000}, Seed: 9, Value: mode}
			if mode == ValueRandom {
				d.ValueSize = MemberIDLen
			}
			if err := d.Validate(); err != nil {
				t.Fatal(err)
			}
			sizes := map[uint64]bool{}
			for i := range d.Count {
				r := d.Record(i)
				n := d.MemberCount(i)
				sizes[n] = true
				if uint64(len(r.Members)) != n || n < 1 || n > 3000 {
					t.Fatalf("%s/%s record %d: %d members, count %d", typ, mode, i, len(r.Members), n)
				}
				seen := map[string]bool{}
				for j, m := range r.Members {
					if string(m.Name) != string(d.AppendMember(nil, i, uint64(j))) {
						t.Fatal("member not deterministic")
					}
					if typ != record.List && seen[string(m.Name)] {
						t.Fatalf("%s/%s record %d: member %q repeats", typ, mode, i, m.Name)
					}
					seen[string(m.Name)] = true
					if typ == record.ZSet && j > 0 && m.Score >= r.Members[j-1].Score {
						t.Fatalf("scores do not descend: %v after %v", m.Score, r.Members[j-1].Score)
					}
					if typ == record.Hash && mode == ValueRandom && len(m.Value) != d.ValueSize {
						t.Fatalf("hash value of %d bytes", len(m.Value))
					}
				}
			}
			if len(sizes) < 10 {
				t.Fatalf("member counts barely vary: %v", sizes)
			}
		}
	}
}

func TestRecordOfStrings(t *testing.T) {
	d := Config{Count: 3, KeyPrefix: "k", KeyStart: 7}
	r := d.Record(1)
	if string(r.Key) != "k8" || string(r.Value) != "k8" || r.Type != record.String || r.Members != nil {
		t.Fatalf("record %+v", r)
	}
}
