package live

import (
	"slices"
	"testing"
)

// TestReadablePatterns parses ACL GETUSER replies of Redis 6.x (a "keys" array of bare
// patterns, the "allkeys" flag) and 7.0+ (a "keys" string of ~p %R~p %W~p rules, and
// selectors): the patterns with read access, and whether one covers every key.
func TestReadablePatterns(t *testing.T) {
	for _, tt := range []struct {
		name  string
		reply []any
		want  []string
		all   bool
	}{
		{"6.x patterns", []any{"flags", []any{"on"}, "passwords", []any{}, "commands", "+@all", "keys", []any{"app:*", "b:*"}}, []string{"app:*", "b:*"}, false},
		{"6.x allkeys", []any{"flags", []any{"on", "allkeys", "allcommands"}, "keys", []any{"*"}}, []string{"*"}, true},
		{"6.x no keys", []any{"flags", []any{"on"}, "keys", []any{}}, nil, false},
		{"7.0 rules", []any{"flags", []any{"on"}, "keys", "~app:* %R~ro:* %W~wo:* %RW~rw:*", "channels", ""}, []string{"app:*", "ro:*", "rw:*"}, false},
		{"7.0 all", []any{"flags", []any{"on"}, "keys", "~*"}, []string{"*"}, true},
		{"7.0 selectors", []any{"keys", "", "selectors", []any{
			[]any{"commands", "-@all +get", "keys", "~sel:*", "channels", ""},
			[]any{"commands", "+@all", "keys", "%W~w:*", "channels", ""},
		}}, []string{"sel:*"}, false},
		{"7.0 none", []any{"keys", "", "selectors", []any{}}, nil, false},
	} {
		got, all := readablePatterns(tt.reply)
		if !slices.Equal(got, tt.want) || all != tt.all {
			t.Errorf("%s: %q, all %v; want %q, %v", tt.name, got, all, tt.want, tt.all)
		}
	}
}

// TestScanMatch: the glob SCAN gets and whether keys are checked against the patterns.
func TestScanMatch(t *testing.T) {
	for _, tt := range []struct {
		patterns    []string
		match, want string
		check       bool
	}{
		{nil, "", "", false},
		{nil, "x*", "x*", false},
		{[]string{"app:*"}, "", "app:*", false},
		{[]string{"app:*"}, "app:1*", "app:1*", true},
		{[]string{"a:*", "b:*"}, "", "", true},
	} {
		got, check := keyAccess{patterns: tt.patterns}.scanMatch(tt.match)
		if got != tt.want || check != tt.check {
			t.Errorf("%q, match %q: %q, %v; want %q, %v", tt.patterns, tt.match, got, check, tt.want, tt.check)
		}
	}
}
