package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/inspect"
)

// TestInspectPrefixes inspects an example spec's dataset by key prefix: each key family of
// the spec is listed, and the rows (with "other" when --top cuts) add up to the whole file's
// keys, bytes of records and estimated memory (the keys' share, without the dict tables).
func TestInspectPrefixes(t *testing.T) {
	ctx := context.Background()
	dump := filepath.Join(t.TempDir(), "d.rdb")
	if _, stderr, err := run(t, ctx, "--spec", "../../examples/spring-cache.yaml", "--count-scale", "0.01", "-o", dump, "-q"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, tc := range []struct {
		args   []string
		listed []string
	}{
		{[]string{"--separator", "::"}, []string{"postsCache::", "usersCache::"}},
		{[]string{"--separator", "::", "--depth", "2"}, []string{"postsCache::allPosts"}},
		{[]string{"--separator", "::", "--top", "1"}, nil},
	} {
		stdout, _, err := run(t, ctx, append([]string{"inspect", dump, "--prefixes", "--json"}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var r inspect.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		var keys uint64
		var bytes, mem, recBytes int64
		got := map[string]bool{}
		for _, p := range r.Prefixes {
			keys, bytes, mem = keys+p.Keys, bytes+p.Bytes, mem+p.Memory
			got[p.Prefix] = true
		}
		for _, ty := range r.Types {
			recBytes += ty.Bytes
		}
		if keys != r.Keys || bytes != recBytes || mem+r.Memory.Tables != r.Memory.Bytes {
			t.Errorf("%v: rows sum to %d keys, %d bytes, %d memory; want %d, %d, %d", tc.args, keys, bytes, mem, r.Keys, recBytes, r.Memory.Bytes-r.Memory.Tables)
		}
		for _, w := range tc.listed {
			if !got[w] {
				t.Errorf("%v: prefix %q not listed: %+v", tc.args, w, r.Prefixes)
			}
		}
		if len(tc.listed) == 0 && (len(r.Prefixes) != 2 || !r.Prefixes[1].Other) {
			t.Errorf("%v: want one row and other: %+v", tc.args, r.Prefixes)
		}
	}
	if stdout, _, err := run(t, ctx, "inspect", dump, "--prefixes", "--top", "0", "--json"); err != nil || strings.Contains(stdout, `"prefixes"`) {
		t.Errorf("--top 0 lists prefix rows: %v\n%s", err, stdout)
	}
	text, _, err := run(t, ctx, "inspect", dump, "--prefixes", "--separator", "::")
	if err != nil || !strings.Contains(text, `"usersCache::": `) {
		t.Errorf("text report: %v\n%s", err, text)
	}
}
