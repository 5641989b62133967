package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
)

// TestLiveLimitedUser reads a server as an ACL user limited to ~app:* (issue 34, item 18):
// convert (by the automatic fallback to a scan, and by --via scan) and import read the keys
// it may read, and say on stderr and in the summary, text and JSON, that the read was
// limited to its key patterns; a user who may not run ACL GETUSER stops at the first key
// it may not read, with a way out that the command takes (convert: --match; import: none of
// convert's flags).
func TestLiveLimitedUser(t *testing.T) {
	ctx := context.Background()
	src := servertest.StartEmpty(t)
	for _, args := range [][]any{
		{"ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+@all", "-function", "-sync", "-psync"},
		{"ACL", "SETUSER", "noacl", "on", ">pw", "~app:*", "+@all", "-function", "-sync", "-psync", "-acl"},
		{"SET", "app:1", "a"}, {"HSET", "app:2", "f", "v"}, {"SET", "other", "x"},
	} {
		if err := src.Client().Do(ctx, args...).Err(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	dir := t.TempDir()
	url := func(user string) string { return "redis://" + user + ":pw@" + src.Addr }
	for i, args := range [][]string{
		{"convert", url("app"), "--drop-functions", "--json"},
		{"convert", url("app"), "--drop-functions", "--via", "scan"},
		{"import", url("app"), "--drop-functions", "--via", "scan", "--json"},
		{"convert", url("noacl"), "--drop-functions", "--via", "scan", "--match", "app:*"},
	} {
		out := filepath.Join(dir, fmt.Sprintf("ok-%d.rdb", i))
		stdout, stderr, err := run(t, ctx, append(args, "-o", out)...)
		if err != nil {
			t.Errorf("%q: %v: %s", args, err, stderr)
			continue
		}
		if n := servertest.KeyCount(t, servertest.Start(t, out).Client()); n != 2 {
			t.Errorf("%q: the file holds %d keys, want 2", args, n)
		}
		if args[1] == url("noacl") {
			if !strings.Contains(stderr, "may not run ACL WHOAMI") {
				t.Errorf("%q: stderr %q; want it to say the key patterns are unknown", args, stderr)
			}
			continue
		}
		if !strings.Contains(stderr, "may read only the keys matching app:*") {
			t.Errorf("%q: stderr %q; want it to say the read is limited to app:*", args, stderr)
		}
		if strings.Contains(strings.Join(args, " "), "--json") {
			if p, ok := jsonField(t, stdout, "key_patterns").([]any); !ok || len(p) != 1 || p[0] != "app:*" {
				t.Errorf("%q: key_patterns %v; want [app:*]", args, p)
			}
		} else if !strings.Contains(stdout, "read only the keys matching app:*, the user's key patterns") {
			t.Errorf("%q: summary %q; want it to say the read is limited to app:*", args, stdout)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", url("noacl"), "--drop-functions", "--via", "scan"}, "(--match PATTERN scans only the keys the user may read)"},
		{[]string{"import", url("noacl"), "--drop-functions", "--via", "scan"}, "let the user run ACL GETUSER"},
	} {
		out := filepath.Join(dir, "refused.rdb")
		_, _, err := run(t, ctx, append(tt.args, "-o", out)...)
		if err == nil || !strings.Contains(err.Error(), `DUMP "other"`) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v; want one line naming the key and saying %q", tt.args, err, tt.want)
			continue
		}
		flags := commandFlagNames(tt.args[0])
		for _, m := range suggested.FindAllStringSubmatch(err.Error(), -1) {
			if !flags[m[1]] {
				t.Errorf("%s's error names --%s, which %s does not take: %v", tt.args[0], m[1], tt.args[0], err)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: wrote %s", tt.args, out)
		}
	}
}
