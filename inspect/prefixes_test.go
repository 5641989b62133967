package inspect

import (
	"fmt"
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

// TestPrefixesPlan checks what a full table asks of a second pass: none when the largest
// prefixes came first and are exact, one when a prefix that came late stands out, and
// none, with no row listed, when every prefix is alike (each key its own prefix).
func TestPrefixesPlan(t *testing.T) {
	const small = 30000
	many := func(p *prefixes) {
		for i := range small {
			p.add(fmt.Appendf(nil, "one%d", i), 10, 100)
		}
	}
	big := func(p *prefixes) {
		for i := range 300 {
			p.add(fmt.Appendf(nil, "big:%d", i), 10, 1000)
		}
	}
	for _, tc := range []struct {
		name                 string
		fill                 []func(*prefixes)
		wantExact, wantAgain bool
	}{
		{"big first", []func(*prefixes){big, many}, true, true},
		{"big last", []func(*prefixes){many, big}, false, true},
		{"alike", []func(*prefixes){many}, false, false},
	} {
		p := newPrefixes(PrefixOptions{Top: 1})
		for _, f := range tc.fill {
			f(p)
		}
		exact, again := p.plan()
		if e := p.by["big:"]; e != nil && e.MemoryError == 0 {
			tc.wantExact = true // it came to an empty cell: its figures are exact
		}
		if !p.overflowed || exact != tc.wantExact || again != tc.wantAgain {
			t.Errorf("%s: overflowed %v, exact %v, again %v; want true, %v, %v", tc.name, p.overflowed, exact, again, tc.wantExact, tc.wantAgain)
		}
		if tc.wantAgain {
			continue
		}
		most := p.listNone()
		rows := p.result()
		if len(rows) != 1 || !rows[0].Other || rows[0].Keys != small || most < 100 || most > p.total.Memory {
			t.Errorf("%s: rows %+v, bound %d; want other alone of %d keys and a bound of 100 or more", tc.name, rows, most, small)
		}
	}
}
