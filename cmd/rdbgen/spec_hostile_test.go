package main

import (
	"context"
	"strings"
	"testing"
)

// TestSpecCountOverflow: a count scale or counts past 64 bits are one clear line, before
// anything is written or estimated; spec check never prints a negative size.
func TestSpecCountOverflow(t *testing.T) {
	small := writeSpec(t, "families:\n  - key: \"k{id}\"\n    count: 10\n    value: x\n")
	two := writeSpec(t, "families:\n  - key: \"a{id}\"\n    count: 9223372036854775808\n    value: x\n  - key: \"b{id}\"\n    count: 9223372036854775808\n    value: x\n")
	huge := writeSpec(t, "families:\n  - key: \"k{id}\"\n    count: 18446744073709551615\n    value: {string: 1000}\n")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"spec", "check", small, "--count-scale", "1e300"}, "families[0].count: count 10 times count scale 1e+300 is more than 18446744073709551615 keys"},
		{[]string{"--spec", small, "--count-scale", "1e300", "-o", "d.rdb"}, "count scale 1e+300"},
		{[]string{"spec", "check", two}, "families[1].count: the families up to this one make more than 18446744073709551615 keys in all"},
		{[]string{"--spec", two, "-o", "d.rdb"}, "more than 18446744073709551615 keys in all"},
		{[]string{"spec", "check", huge}, "the file would be larger than 9223372036854775807 bytes"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Chdir(t.TempDir())
			stdout, _, err := run(t, context.Background(), tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v, want one line containing %q", err, tt.want)
			}
			if stdout != "" {
				t.Fatalf("printed %q", stdout)
			}
			if got := dirEntries(t, "."); len(got) != 0 {
				t.Fatalf("a failed run left files: %v", got)
			}
		})
	}
}
