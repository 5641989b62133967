package spec

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestSequenceNeverWraps: a step near 2^62 makes numbers past the int64 range, written
// exactly, so the members stay distinct.
func TestSequenceNeverWraps(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{"{start: 0, step: 4611686018427387904}", []string{"0", "4611686018427387904", "9223372036854775808", "13835058055282163712", "18446744073709551616"}},
		{"{start: -9223372036854775808, step: -1}", []string{"-9223372036854775808", "-9223372036854775809", "-9223372036854775810", "-9223372036854775811", "-9223372036854775812"}},
		{"{start: 9223372036854775807, step: 9223372036854775807}", []string{"9223372036854775807", "18446744073709551614", "27670116110564327421", "36893488147419103228", "46116860184273879035"}},
	} {
		s, err := Parse("t.yaml", []byte("families:\n  - key: s\n    type: set\n    members: {count: 5, value: {sequence: "+tt.src+"}}\n"))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := s.Families[0].Record(0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range rec.Members {
			got = append(got, string(m.Name))
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Fatalf("%s: got %v, want %v", tt.src, got, tt.want)
		}
	}
	for _, tt := range []struct {
		start, step int64
		k           uint64
		want        int64
		ok          bool
	}{
		{0, 1, math.MaxInt64, math.MaxInt64, true},
		{1, 1, math.MaxInt64, 0, false},
		{0, 1, math.MaxInt64 + 1, 0, false},
		{7, 0, math.MaxUint64, 7, true},
		{math.MinInt64, -1, 0, math.MinInt64, true},
		{math.MinInt64, -1, 1, 0, false},
		{0, math.MinInt64, 1, math.MinInt64, true},
		{0, math.MinInt64, 2, 0, false},
		{-1, 2, 1 << 62, 0, false},
	} {
		if got, ok := seqValue(tt.start, tt.step, tt.k); ok != tt.ok || ok && got != tt.want {
			t.Errorf("seqValue(%d, %d, %d) = %d, %v", tt.start, tt.step, tt.k, got, ok)
		}
	}
}

// TestHostileSpecs: each gets one line naming the file, line, column and field.
func TestHostileSpecs(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"float range beyond float64", "families:\n  - key: a\n    value: {float: {min: -1e308, max: 1e308}}\n",
			"t.yaml:3:39: families[0].value.float.max: the range from -1e+308 to 1e+308 is wider than a 64-bit float holds"},
		{"nan score", "families:\n  - key: z\n    type: zset\n    members: {count: 2, value: {sequence: {}}, score: .nan}\n",
			"t.yaml:4:55: families[0].members.score: NaN is not a score (Redis refuses it)"},
		{"empty fields", "families:\n  - key: h\n    type: hash\n    fields: {}\n",
			"t.yaml:4:13: families[0].fields: no fields: a hash needs at least one"},
		{"field name with a newline", "families:\n  - key: h\n    type: hash\n    fields: {\"a\\nb\": {int: {min: 5, max: 1}}}\n",
			`t.yaml:4:42: families[0].fields["a\nb"].int.max: 1 is below min 5`},
		{"field name with a dot, given twice", "families:\n  - key: h\n    type: hash\n    fields: {\"a.b\": 1, \"a.b\": 2}\n",
			`t.yaml:4:24: families[0].fields["a.b"]: field given twice (first at line 4)`},
		{"two families of 2^63 keys", "families:\n  - key: \"a{id}\"\n    count: 9223372036854775808\n    value: x\n  - key: \"b{id}\"\n    count: 9223372036854775808\n    value: x\n",
			"t.yaml:5: families[1].count: the families up to this one make more than 18446744073709551615 keys in all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") || !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestYAMLScores: .inf, -.inf, 0x10 and 1_000 are scores as YAML reads them.
func TestYAMLScores(t *testing.T) {
	for src, want := range map[string]float64{".inf": math.Inf(1), "-.inf": math.Inf(-1), "+.Inf": math.Inf(1), "0x10": 16, "0o17": 15, "1_000": 1000, "2.5": 2.5} {
		s, err := Parse("t.yaml", []byte("families:\n  - key: z\n    type: zset\n    members: {count: 2, value: {sequence: {}}, score: "+src+"}\n"))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		rec, err := s.Families[0].Record(0)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if rec.Type != record.ZSet || rec.Members[0].Score != want {
			t.Fatalf("%s: score %v, want %v", src, rec.Members[0].Score, want)
		}
	}
}

// TestCountScaleOverflow: a scale that makes more keys than 64 bits count is refused, and
// so is a file too large to count its bytes; spec check never reports a negative size.
func TestCountScaleOverflow(t *testing.T) {
	s, err := Parse("t.yaml", []byte("families:\n  - key: \"a{id}\"\n    count: 10\n    value: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = s.SetParams(Params{Seed: 1, CountScale: 1e300})
	if err == nil || !strings.Contains(err.Error(), "t.yaml:2: families[0].count: count 10 times count scale 1e+300 is more than 18446744073709551615 keys") {
		t.Fatalf("got %v", err)
	}
	s, err = Parse("t.yaml", []byte("families:\n  - key: \"a{id}\"\n    count: 18446744073709551615\n    value: {string: 1000}\n"))
	if err != nil {
		t.Fatal(err)
	}
	est, err := s.Estimate(context.Background(), encoder.Options{})
	if err == nil || !strings.Contains(err.Error(), "the file would be larger than 9223372036854775807 bytes") || est.Bytes < 0 {
		t.Fatalf("estimate %+v, %v", est, err)
	}
}

// hugeSet is a spec whose one set holds the ids of 3·10^9 records.
const hugeSet = "families:\n  - key: \"u{id}\"\n    count: 3000000000\n    value: x\n  - key: all\n    type: set\n    members: {of_family: \"u{id}\"}\n"

// TestLongLoopsStop: a cancelled context stops a collection of 3·10^9 members and the overlap
// check of two families that must be listed, instead of running them to the end.
func TestLongLoopsStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := Parse("t.yaml", []byte(hugeSet))
	if err != nil {
		t.Fatal(err)
	}
	s.Families = s.Families[1:] // the set alone
	if err := s.WriteTo(ctx, &record.Collector{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Generate = %v", err)
	}
	overlap := "families:\n  - key: \"k{id}\"\n    count: 10000000\n    value: x\n  - key: \"k{id}x\"\n    count: 10000000\n    value: x\n"
	if _, err := ParseContext(ctx, "t.yaml", []byte(overlap)); !errors.Is(err, context.Canceled) {
		t.Fatalf("ParseContext = %v", err)
	}
	if _, err := s.Estimate(ctx, encoder.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Estimate = %v", err)
	}
}

// TestEstimateHugeSet: the estimate of a set of 3·10^9 members encodes a bounded sample.
func TestEstimateHugeSet(t *testing.T) {
	s, err := Parse("t.yaml", []byte(hugeSet))
	if err != nil {
		t.Fatal(err)
	}
	est, err := s.Estimate(context.Background(), encoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := est.Families[1]
	// Each member is a length byte and an integer of 5 bytes at most: 2 to 6 bytes.
	if set.Exact || set.Bytes < 2*3_000_000_000 || set.Bytes > 6*3_000_000_000 {
		t.Fatalf("set estimate %+v", set)
	}
}
