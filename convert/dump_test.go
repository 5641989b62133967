package convert_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
	"github.com/rdbgen/rdbgen/rewrite"
)

// TestDump: a dump converted for an RDB file keeps a key already expired, for RESP commands
// drops it; the output is created when the dump was, its counts taken as hints; rules
// rewrite the records; Describe names the dump, the rules and the move of the expiries.
func TestDump(t *testing.T) {
	ctx := context.Background()
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	in := dumpOf(t, created, record.Records{
		{Key: []byte("user:1"), Type: record.String, Value: []byte("alice")},
		{Key: []byte("gone"), Type: record.String, Value: []byte("x"), ExpireAtMS: created.UnixMilli()},
	})
	rulesPath := filepath.Join(t.TempDir(), "rules.yaml")
	if err := os.WriteFile(rulesPath, []byte("rules:\n  - key: 'user:*'\n    value: name\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, err := rewrite.ReadFile(rulesPath)
	if err != nil {
		t.Fatal(err)
	}
	to := created.Add(time.Hour)
	for _, tt := range []struct {
		name     string
		out      output.Options
		opts     convert.Options
		rules    *rewrite.Rules
		keys     []string
		rewrites bool
	}{
		{"rdb", output.Options{}, convert.Options{}, nil, []string{"user:1", "gone"}, false},
		{"resp", output.Options{RESP: &resp.Options{}}, convert.Options{}, nil, []string{"user:1"}, false},
		{"rewritten, rebased", output.Options{}, convert.Options{RebaseTo: to}, rules, []string{"user:1", "gone"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.out
			d, err := tt.opts.Dump(ctx, in, &out, tt.rules, record.DupFirst)
			if err != nil {
				t.Fatal(err)
			}
			var got record.Recorder
			if err := d.Source.WriteTo(ctx, &got); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, r := range got.Records {
				keys = append(keys, string(r.Key))
				if string(r.Key) == "user:1" && (string(r.Value) != "alice") != tt.rewrites {
					t.Errorf("user:1 = %q, rewritten %v", r.Value, tt.rewrites)
				}
			}
			if !slices.Equal(keys, tt.keys) {
				t.Errorf("keys %q, want %q", keys, tt.keys)
			}
			wantCreated := created
			if !tt.opts.RebaseTo.IsZero() {
				wantCreated = tt.opts.RebaseTo
			}
			if !out.Encoder.CreatedAt.Equal(wantCreated) || !out.Encoder.CountsAreHints {
				t.Errorf("encoder options %+v: want created at %v, counts as hints", out.Encoder, wantCreated)
			}
			var m manifest.Manifest
			d.Describe(&m)
			if m.Import == nil || m.Import.OnDup != string(record.DupFirst) || m.Import.Records != 2 {
				t.Errorf("manifest import %+v", m.Import)
			}
			if (m.Rewrite != nil) != tt.rewrites || (m.Rebase != nil) != !tt.opts.RebaseTo.IsZero() {
				t.Errorf("manifest rewrite %v, rebase %v", m.Rewrite, m.Rebase)
			}
		})
	}
}
