package summary

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/spec"
)

// TestCheckSpec estimates an example spec, scaled down, for redis-6.2: the target's RDB
// version, the spec's keys, a size and used_memory; a context cancelled stops it, and an
// RDB version the target cannot write is an error.
func TestCheckSpec(t *testing.T) {
	path := filepath.Join("..", "..", "examples", "sessions.yaml")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse(path, text)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Params
	p.CountScale, p.BaseTimeMS = 0.001, 1_700_000_000_000
	if err := s.SetParams(p); err != nil {
		t.Fatal(err)
	}
	res, err := CheckSpec(t.Context(), s, encoder.Options{Target: "redis-6.2"})
	if err != nil {
		t.Fatal(err)
	}
	if res.File != path || res.Target != "redis-6.2" || res.RDBVersion != 9 || res.Keys != s.Keys() || len(res.Families) == 0 ||
		res.Bytes <= 0 || res.UsedMemory <= 0 || res.Memory == nil || res.UsedMemory != res.Memory.Bytes {
		t.Fatalf("check %+v", res)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := CheckSpec(ctx, s, encoder.Options{Target: "redis-6.2"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, err := CheckSpec(t.Context(), s, encoder.Options{Target: "redis-6.2", RDBVersion: 99}); err == nil || !strings.Contains(err.Error(), "99") {
		t.Fatalf("RDB 99: %v", err)
	}
}
