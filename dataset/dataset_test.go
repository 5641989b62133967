package dataset

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	ok := Config{Count: 10, KeyPrefix: "key", KeyStart: 1}
	tests := []struct {
		name    string
		change  func(*Config)
		wantMsg string // empty: valid
	}{
		{"default", func(*Config) {}, ""},
		{"empty prefix", func(d *Config) { d.KeyPrefix = "" }, ""},
		{"zero count", func(d *Config) { d.Count = 0 }, ""},
		{"nul in prefix", func(d *Config) { d.KeyPrefix = "a\x00b" }, "NUL"},
		{"overflow", func(d *Config) { d.KeyStart = 1<<64 - 5 }, "overflows"},
		{"last key fits", func(d *Config) { d.KeyStart = 1<<64 - 10 }, ""},
		{"random size 0", func(d *Config) { d.Value = ValueRandom }, "value size 0 out of range"},
		{"random size max", func(d *Config) { d.Value, d.ValueSize = ValueRandom, MaxValueSize }, ""},
		{"random size too big", func(d *Config) { d.Value, d.ValueSize = ValueRandom, MaxValueSize+1 }, "out of range"},
		{"random size negative", func(d *Config) { d.Value, d.ValueSize = ValueRandom, -1 }, "out of range"},
		{"size with same", func(d *Config) { d.ValueSize = 10 }, "goes with --value random"},
		{"unknown mode", func(d *Config) { d.Value = "zeros" }, `value mode "zeros"`},
		{"negative db", func(d *Config) { d.DB = -1 }, "db -1"},
		{"negative ttl", func(d *Config) { d.TTL = -time.Second }, "negative"},
		{"jitter without ttl", func(d *Config) { d.TTLJitter = time.Second }, "needs a ttl"},
		{"jitter not below ttl", func(d *Config) { d.TTL, d.TTLJitter, d.BaseTimeMS = time.Second, time.Second, 1 }, "less than the ttl"},
		{"ttl without base", func(d *Config) { d.TTL = time.Second }, "base time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ok
			tt.change(&d)
			err := d.Validate()
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("got %v, want an ErrInvalid containing %q", err, tt.wantMsg)
			}
		})
	}
}

// TestCursorMatchesRandomAccess checks that the fast sequential cursor yields the records the
// verifier recomputes one by one, across digit roll-overs.
func TestCursorMatchesRandomAccess(t *testing.T) {
	base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	tests := []Config{
		{Count: 1000, KeyPrefix: "key", KeyStart: 100000001},
		{Count: 1200, KeyPrefix: "", KeyStart: 0},
		{Count: 30, KeyPrefix: "k:", KeyStart: 95},
		{Count: 20, KeyPrefix: "x", KeyStart: 1<<64 - 20},
		{Count: 300, KeyPrefix: "r", KeyStart: 9990, Value: ValueRandom, ValueSize: 33, Seed: 7},
		{Count: 300, KeyPrefix: "t", KeyStart: 1, TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base, Seed: 9},
	}
	for _, d := range tests {
		if err := d.Validate(); err != nil {
			t.Fatal(err)
		}
		c := d.Cursor()
		var n uint64
		for c.Next() {
			if c.Index() != n {
				t.Fatalf("Index() = %d, want %d", c.Index(), n)
			}
			if got, want := string(c.Key()), string(d.AppendKey(nil, n)); got != want {
				t.Fatalf("%+v record %d: cursor key %q, want %q", d, n, got, want)
			}
			if got, want := string(c.Value()), string(d.AppendValue(nil, n)); got != want {
				t.Fatalf("record %d: cursor value %q, want %q", n, got, want)
			}
			if got, want := c.ExpireAtMS(), d.ExpireAtMS(n); got != want {
				t.Fatalf("record %d: cursor expiry %d, want %d", n, got, want)
			}
			n++
		}
		if n != d.Count {
			t.Fatalf("cursor yielded %d records, want %d", n, d.Count)
		}
	}
}

func TestRandomValuesAreDeterministicAndVaried(t *testing.T) {
	d := Config{Count: 1000, Value: ValueRandom, ValueSize: 25, Seed: 42}
	other := d
	other.Seed = 43
	seen := map[string]bool{}
	for i := range uint64(1000) {
		v := string(d.AppendValue(nil, i))
		if len(v) != 25 {
			t.Fatalf("value %d has %d bytes", i, len(v))
		}
		if v != string(d.AppendValue(nil, i)) {
			t.Fatal("value not deterministic")
		}
		if v == string(other.AppendValue(nil, i)) {
			t.Fatal("another seed gave the same value")
		}
		seen[v] = true
	}
	if len(seen) != 1000 {
		t.Fatalf("%d distinct values of 1000", len(seen))
	}
}

func TestExpiryJitterStaysInWindow(t *testing.T) {
	const base = 1_900_000_000_000
	d := Config{Count: 10000, TTL: time.Hour, TTLJitter: 10 * time.Second, BaseTimeMS: base, Seed: 1}
	lo, hi := int64(1<<62), int64(0)
	for i := range d.Count {
		at := d.ExpireAtMS(i)
		lo, hi = min(lo, at), max(hi, at)
	}
	center := int64(base + time.Hour.Milliseconds())
	if lo < center-10000 || hi > center+10000 {
		t.Fatalf("expiries span [%d, %d], outside %d ± 10000", lo, hi, center)
	}
	if hi-lo < 19000 {
		t.Fatalf("expiries span only %d ms of a 20000 ms window", hi-lo)
	}
	if (&Config{Count: 5}).ExpireAtMS(3) != 0 {
		t.Fatal("a dataset without ttl has an expiry")
	}
}

func BenchmarkCursor(b *testing.B) {
	d := Config{Count: 1 << 62, KeyPrefix: "key", KeyStart: 100000001}
	c := d.Cursor()
	for b.Loop() {
		c.Next()
	}
}
