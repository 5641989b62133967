package rewrite

import (
	"bytes"
	"strings"
	"testing"

	redisglob "github.com/rdbgen/rdbgen/internal/glob"
)

// globCases are patterns and strings with whether Redis's matcher matches them; the real
// server's KEYS agrees with every one (TestGlobAgreesWithRedis).
var globCases = []struct {
	pattern, s string
	want       bool
}{
	{"", "", true},
	{"", "a", false},
	{"*", "", true},   // as KEYS *, which matches every key
	{"**", "", false}, // as the server's matcher: a star matches no empty string
	{"*", "anything", true},
	{"**", "x", true},
	{"a**", "a", true},
	{"a*", "a", true},
	{"a*", "ba", false},
	{"*a", "ba", true},
	{"*a", "ab", false},
	{"*a*b", "xaxb", true},
	{"*a*b", "xaxbx", false},
	{"user:*", "user:", true},
	{"user:*", "user", false},
	{"user:*:email", "user:1:email", true},
	{"user:*:email", "user:1:name", false},
	{"a?c", "abc", true},
	{"a?c", "ac", false},
	{"?", "", false},
	{"[abc]x", "bx", true},
	{"[abc]x", "dx", false},
	{"[a-c]x", "bx", true},
	{"[c-a]x", "bx", true}, // a range either way round
	{"[^a]x", "ax", false},
	{"[^a]x", "bx", true},
	{"[^a-c]", "d", true},
	{"[]", "a", false},
	{"[abc", "a", true}, // a class left open ends with the pattern
	{"[abc", "ab", false},
	{"[a-", "a", true},
	{`[\]]`, "]", true},
	{`[\-]`, "-", true},
	{`\*`, "*", true},
	{`\*`, "a", false},
	{`\?x`, "?x", true},
	{`a\`, `a\`, true},
	{`\\`, `\`, true},
	{"h[ae]llo", "hello", true},
	{"h*llo", "heeeello", true},
	{"*[0-9]", "id7", true},
	{"*[0-9]", "id", false},
}

func TestMatch(t *testing.T) {
	for _, tt := range globCases {
		if got := redisglob.Match([]byte(tt.pattern), []byte(tt.s)); got != tt.want {
			t.Errorf("match(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}

func TestMatchDeepStarsGiveUp(t *testing.T) {
	// Many stars against a long string that fails at its end must not take exponential time;
	// and past the nesting limit a pattern matches nothing, as on the server.
	s := bytes.Repeat([]byte("a"), 100)
	if redisglob.Match([]byte(strings.Repeat("*a", 30)+"b"), s) {
		t.Fatal("matched a string without b")
	}
	if !redisglob.Match([]byte(strings.Repeat("*a", 30)), s) {
		t.Fatal("did not match")
	}
	deep := bytes.Repeat([]byte("a*"), 1000+2)
	if redisglob.Match(deep, bytes.Repeat([]byte("a"), 1000+10)) {
		t.Fatal("matched past the nesting limit")
	}
}

func TestParseGlob(t *testing.T) {
	tests := []struct {
		pattern        string
		oneStar        bool
		prefix, suffix string
	}{
		{"user:*", true, "user:", ""},
		{"*", true, "", ""},
		{"session:*:data", true, "session:", ":data"},
		{`a\*b:*`, true, "a*b:", ""},
		{`x\`, false, "", ""},
		{"plain", false, "", ""},
		{"a*b*", false, "", ""},
		{"user:?*", false, "", ""},
		{"[ab]*", false, "", ""},
	}
	for _, tt := range tests {
		g := parseGlob(tt.pattern)
		if g.oneStar != tt.oneStar || string(g.prefix) != tt.prefix || string(g.suffix) != tt.suffix {
			t.Errorf("parseGlob(%q) = oneStar %v, %q, %q; want %v, %q, %q", tt.pattern, g.oneStar, g.prefix, g.suffix, tt.oneStar, tt.prefix, tt.suffix)
		}
		if !g.oneStar {
			continue
		}
		// A one-star pattern matches exactly prefix + anything + suffix.
		for _, mid := range []string{"", "x", "*?["} {
			if s := tt.prefix + mid + tt.suffix; s != "" && !g.matches([]byte(s)) {
				t.Errorf("%q does not match %q", tt.pattern, s)
			}
		}
	}
}

func FuzzParseGlob(f *testing.F) {
	for _, tt := range globCases {
		f.Add(tt.pattern, tt.s)
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		got := redisglob.Match([]byte(pattern), []byte(s))
		if !strings.ContainsAny(pattern, `*?[\`) && got != (pattern == s) {
			t.Fatalf("literal pattern %q against %q: %v", pattern, s, got)
		}
		if g := parseGlob(pattern); g.oneStar && s != "" {
			want := len(s) >= len(g.prefix)+len(g.suffix) && strings.HasPrefix(s, string(g.prefix)) && strings.HasSuffix(s, string(g.suffix))
			if got != want {
				t.Fatalf("one-star pattern %q against %q: %v, want %v", pattern, s, got, want)
			}
		}
	})
}
