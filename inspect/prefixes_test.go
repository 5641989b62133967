package inspect

import (
	"testing"
)

func TestPrefix(t *testing.T) {
	for _, tc := range []struct {
		sep   string
		depth int
		key   string
		want  string
	}{
		{":", 1, "user:42:cart", "user:"},
		{":", 2, "user:42:cart", "user:42:"},
		{":", 3, "user:42:cart", "user:42:cart"},
		{":", 1, "plain", "plain"},
		{":", 1, "", ""},
		{":", 1, ":lead", ":"},
		{"::", 1, "postsCache::7", "postsCache::"},
		{"::", 1, "a:b", "a:b"},
	} {
		p := newPrefixes(PrefixOptions{Separator: tc.sep, Depth: tc.depth})
		if got := string(p.prefix([]byte(tc.key))); got != tc.want {
			t.Errorf("%q depth %d sep %q: %q, want %q", tc.key, tc.depth, tc.sep, got, tc.want)
		}
	}
}

// TestPrefixesBounded fills the table past its room: the rows still add up, the overflow
// in other.
func TestPrefixesBounded(t *testing.T) {
	p := newPrefixes(PrefixOptions{Top: 2})
	n := maxPrefixes(2) + 50
	for i := range n {
		p.add([]byte{byte(i), byte(i >> 8), byte(i >> 16)}, 10, 100)
	}
	rows := p.result()
	var keys uint64
	var mem int64
	for _, r := range rows {
		keys, mem = keys+r.Keys, mem+r.Memory
	}
	if keys != uint64(n) || mem != int64(n)*100 || len(rows) != 3 || !rows[2].Other || !p.overflowed {
		t.Errorf("%d keys, %d memory in %d rows (overflowed %v), want %d, %d in 3", keys, mem, len(rows), p.overflowed, n, n*100)
	}
}
