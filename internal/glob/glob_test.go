package glob_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/rdbgen/rdbgen/internal/glob"
	"github.com/rdbgen/rdbgen/internal/servertest"
)

// globCases are patterns and keys with Redis's answers (checked against a real server by
// TestMatchAgainstRedis).
var globCases = []struct {
	pattern string
	keys    map[string]bool
}{
	{"*", map[string]bool{"a": true, "user:1": true, "": true}},
	{"**", map[string]bool{"a": true, "": false}},
	{"", map[string]bool{"": true, "a": false}},
	{"user:*", map[string]bool{"user:": true, "user:42": true, "users": false, "xuser:1": false}},
	{"*:1", map[string]bool{"user:1": true, "a:1": true, ":1": true, "user:12": false}},
	{"a*b*c", map[string]bool{"abc": true, "aXbYc": true, "abcbc": true, "acb": false, "ab": false}},
	{"h?llo", map[string]bool{"hello": true, "hallo": true, "hllo": false, "heello": false}},
	{"h[ae]llo", map[string]bool{"hello": true, "hallo": true, "hillo": false}},
	{"h[^e]llo", map[string]bool{"hallo": true, "hello": false}},
	{"h[a-b]llo", map[string]bool{"hallo": true, "hbllo": true, "hcllo": false}},
	{"h[b-a]llo", map[string]bool{"hallo": true, "hbllo": true, "hcllo": false}},
	{`h\*llo`, map[string]bool{"h*llo": true, "hello": false}},
	{`h[\]]llo`, map[string]bool{"h]llo": true, "hallo": false}},
	{`a\`, map[string]bool{`a\`: true, "a": false}},
	{"a[bc", map[string]bool{"ab": true, "ac": true, "abc": false, "a[bc": false}},
	{"a[", map[string]bool{"a": false, "ab": false, "a[": false}},
	{"**x", map[string]bool{"x": true, "yx": true, "xy": false}},
	{"x**", map[string]bool{"x": true, "xyz": true}},
	{"[a-c-e]", map[string]bool{"b": true, "-": true, "e": true, "d": false}},
	{"?", map[string]bool{"": false, "a": true, "ab": false}},
}

func TestMatch(t *testing.T) {
	for _, tc := range globCases {
		for key, want := range tc.keys {
			if got := glob.Match([]byte(tc.pattern), []byte(key)); got != want {
				t.Errorf("Match(%q, %q) = %t, want %t", tc.pattern, key, got, want)
			}
		}
	}
}

// TestMatchAgainstRedis asks a real redis-server's KEYS for every pattern.
func TestMatchAgainstRedis(t *testing.T) {
	inst := servertest.StartEmpty(t)
	c := servertest.Client(t, inst.Addr, 0)
	ctx := context.Background()
	all := map[string]bool{}
	for _, tc := range globCases {
		for k := range tc.keys {
			all[k] = true
		}
	}
	for k := range all {
		if err := c.Set(ctx, k, "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range globCases {
		want, err := c.Keys(ctx, tc.pattern).Result()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for k := range all {
			if glob.Match([]byte(tc.pattern), []byte(k)) {
				got = append(got, k)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("pattern %q: matched %q, redis KEYS %q", tc.pattern, got, want)
		}
	}
}

// FuzzMatch: any pattern and key, no panic; a key escaped into a pattern matches itself.
func FuzzMatch(f *testing.F) {
	for _, tc := range globCases {
		for k := range tc.keys {
			f.Add(tc.pattern, k)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, key string) {
		glob.Match([]byte(pattern), []byte(key))
		var esc []byte
		for i := range len(key) {
			esc = append(esc, '\\', key[i])
		}
		if !glob.Match(esc, []byte(key)) {
			t.Fatalf("escaped %q does not match itself", key)
		}
	})
}

func ExampleMatch() {
	for _, key := range []string{"user:1", "user:10", "session:1"} {
		fmt.Println(key, glob.Match([]byte("user:?"), []byte(key)))
	}
	// Output:
	// user:1 true
	// user:10 false
	// session:1 false
}
