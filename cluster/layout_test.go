package cluster

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestEvenMatchesRedisCLI compares Even with testdata/even.txt: the ranges that
// redis-cli --cluster create gives n primaries, computed with its arithmetic in C
// (single-precision floats, lround), for n from 1 to 20 and a few larger ones.
func TestEvenMatchesRedisCLI(t *testing.T) {
	f, err := os.Open("testdata/even.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		lines++
		head, ranges, _ := strings.Cut(sc.Text(), ": ")
		n, _ := strconv.Atoi(head)
		l, err := Even(n)
		if err != nil {
			t.Fatalf("Even(%d): %v", n, err)
		}
		want := strings.Fields(ranges)
		if l.Len() != len(want) {
			t.Fatalf("Even(%d) has %d shards", n, l.Len())
		}
		for i, w := range want {
			if got := l.Shard(i).RangesString(); got != w {
				t.Fatalf("Even(%d) shard %d owns %s, redis-cli gives %s", n, i, got, w)
			}
		}
	}
	if lines < 25 {
		t.Fatalf("read %d lines of testdata/even.txt", lines)
	}
}

// TestEvenProperties checks every n: contiguous ranges from 0 to 16383, sizes within one
// slot of 16384/n.
func TestEvenProperties(t *testing.T) {
	for n := 1; n <= MaxShards; n++ {
		l, err := Even(n)
		if err != nil {
			t.Fatalf("Even(%d): %v", n, err)
		}
		next := 0
		for i := range l.Len() {
			s := l.Shard(i)
			r := s.Ranges[0]
			if len(s.Ranges) != 1 || r.First != next {
				t.Fatalf("Even(%d) shard %d owns %s, want one range from %d", n, i, s.RangesString(), next)
			}
			if d := r.Len() - Slots/n; d < -1 || d > 2 {
				t.Fatalf("Even(%d) shard %d owns %d slots", n, i, r.Len())
			}
			next = r.Last + 1
		}
		if next != Slots {
			t.Fatalf("Even(%d) ends at %d", n, next-1)
		}
	}
	for _, n := range []int{0, -1, MaxShards + 1} {
		if _, err := Even(n); !errors.Is(err, ErrLayout) {
			t.Errorf("Even(%d) = %v, want ErrLayout", n, err)
		}
	}
}

func TestNewLayout(t *testing.T) {
	r := func(a, b int) Range { return Range{a, b} }
	tests := []struct {
		name    string
		shards  []Shard
		want    []string // RangesString of each shard
		wantErr string
	}{
		{"one shard", []Shard{{Ranges: []Range{r(0, 16383)}}}, []string{"0-16383"}, ""},
		{"normalised", []Shard{
			{Ranges: []Range{r(10000, 16383), r(0, 99), r(100, 999)}},
			{Ranges: []Range{r(1000, 1000), r(1001, 9999)}},
		}, []string{"0-999,10000-16383", "1000-9999"}, ""},
		{"single slots", []Shard{{Ranges: []Range{r(0, 0), r(2, 16383)}}, {Ranges: []Range{r(1, 1)}}}, []string{"0,2-16383", "1"}, ""},
		{"no shards", nil, nil, "no shards"},
		{"overlap", []Shard{{Ranges: []Range{r(0, 10000)}}, {Ranges: []Range{r(9000, 16383)}}}, nil, "slot 9000 is owned by shard 0 and shard 1"},
		{"overlap in one shard", []Shard{{Ranges: []Range{r(0, 16383), r(5, 5)}}}, nil, "slot 5 is owned by shard 0 and shard 0"},
		{"gap", []Shard{{Ranges: []Range{r(0, 99)}}, {Ranges: []Range{r(200, 16383)}}}, nil, "slots 100-199 are not owned by any shard"},
		{"gap at end", []Shard{{Ranges: []Range{r(0, 16382)}}}, nil, "slot 16383 is not owned"},
		{"out of range", []Shard{{Ranges: []Range{r(0, 16384)}}}, nil, "slot range 0-16384 is not within 0-16383"},
		{"negative", []Shard{{Ranges: []Range{r(-1, 16383)}}}, nil, "not within"},
		{"reversed", []Shard{{Ranges: []Range{r(16383, 0)}}}, nil, "not within"},
		{"empty shard", []Shard{{Ranges: []Range{r(0, 16383)}}, {}}, nil, "shard 1 owns no slots"},
		{"named node", []Shard{{Ranges: []Range{r(0, 16383)}}, {NodeID: "0123456789abcdef", Addr: "127.0.0.1:7000"}}, nil, "node 01234567 (127.0.0.1:7000) owns no slots"},
		{"too many", make([]Shard, MaxShards+1), nil, "1001 shards (at most 1000)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := NewLayout(tt.shards)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an ErrLayout containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tt.want {
				if got := l.Shard(i).RangesString(); got != w {
					t.Errorf("shard %d owns %s, want %s", i, got, w)
				}
			}
			// Every slot has the owner whose ranges hold it.
			for slot := range Slots {
				if !l.Shard(l.Owner(slot)).Owns(slot) {
					t.Fatalf("slot %d: owner %d does not own it", slot, l.Owner(slot))
				}
			}
		})
	}
}

func TestLayoutShardOf(t *testing.T) {
	l, err := Even(3)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]int{"foo": 2, "bar": 0, "{user1000}.following": 0, "key100000001": 1, "hello": 0} {
		if got := l.ShardOf([]byte(key)); got != want {
			t.Errorf("ShardOf(%q) = %d, want %d", key, got, want)
		}
	}
	// Shards returns copies: changing them leaves the layout as it was.
	s := l.Shards()
	s[0].Ranges[0].Last = 1
	if l.Shard(0).Ranges[0].Last != 5460 {
		t.Fatal("Shards shares the layout's ranges")
	}
	if l.Shard(1).Slots() != 5462 {
		t.Fatalf("shard 1 owns %d slots", l.Shard(1).Slots())
	}
}

func TestParseRange(t *testing.T) {
	for in, want := range map[string]Range{"0": {0, 0}, "0-16383": {0, 16383}, "5461-10922": {5461, 10922}, "007-8": {7, 8}} {
		got, err := ParseRange(in)
		if err != nil || got != want {
			t.Errorf("ParseRange(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-", "-5", "5-", "16384", "0-16384", "10-5", "+5", " 5", "5 ", "a-b", "1-2-3", "99999999999999999999"} {
		if r, err := ParseRange(in); !errors.Is(err, ErrLayout) {
			t.Errorf("ParseRange(%q) = %v, %v; want an ErrLayout", in, r, err)
		}
	}
	var r Range
	if err := r.UnmarshalText([]byte("100-200")); err != nil || r != (Range{100, 200}) {
		t.Fatalf("UnmarshalText: %v, %v", r, err)
	}
	if b, _ := r.MarshalText(); string(b) != "100-200" {
		t.Fatalf("MarshalText: %s", b)
	}
	if s := (Range{7, 7}).String(); s != "7" {
		t.Fatalf("single slot: %s", s)
	}
}
