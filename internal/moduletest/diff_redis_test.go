package moduletest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/diff"
	"github.com/rdbgen/rdbgen/internal/moduletest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
)

// TestModuleDiff compares dumps that redis-server wrote with rdbgen's test module: a dump
// and its conversion to RDB 9 are the same; after a module value and the AUX data saved
// after the keys are changed, diff names that key and that AUX data, and nothing else.
func TestModuleDiff(t *testing.T) {
	ctx := context.Background()
	so := moduletest.Build(t)
	a := writeModuleDump(t, so)
	b := writeModuleDumpThen(t, so, func(ctx context.Context, c *redis.Client) error {
		if err := c.Do(ctx, "MT.SET", "m:lzf", "s", "8").Err(); err != nil {
			return err
		}
		return c.Do(ctx, "MT.AUX", "after", "other trailer").Err()
	})
	conv := filepath.Join(t.TempDir(), "conv.rdb")
	f, err := os.Create(conv)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = convert.Write(ctx, f, decoder.File{Path: a}, output.Options{Encoder: encoder.Options{Target: "redis-6.2"}}, convert.Options{})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	same, err := diff.Compare(ctx, decoder.File{Path: a}, decoder.File{Path: conv}, diff.Options{})
	if err != nil || !same.Same() || same.KeysA != 8 || same.KeysB != 8 {
		t.Fatalf("dump and its conversion: %v %+v", err, same)
	}

	res, err := diff.Compare(ctx, decoder.File{Path: a}, decoder.File{Path: b}, diff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, k := range res.Keys {
		keys = append(keys, fmt.Sprintf("db %d %s %s %v", k.DB, k.Key, k.Kind, k.Fields))
	}
	wantAux := []string{`module AUX of "rdbgen-mt" (encoding version 1) after the keys`}
	if res.Same() || res.Differences != 1 || !slices.Equal(keys, []string{"db 0 m:lzf " + diff.Changed + " [value]"}) ||
		!slices.Equal(res.ModuleAuxOnlyA, wantAux) || !slices.Equal(res.ModuleAuxOnlyB, wantAux) {
		t.Fatalf("after the changes: %q, %+v", keys, res)
	}
}
