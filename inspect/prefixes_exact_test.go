package inspect_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// bigPrefixes are the few large key families that follow 30,000 one-key prefixes in
// manyPrefixes, largest first: a name and its number of 1 KiB strings.
var bigPrefixes = []struct {
	name string
	keys int
}{{"big-a:", 300}, {"big-b:", 200}, {"big-c:", 100}}

// manyPrefixes writes a dump of 30,000 one-key prefixes (small strings) and then the
// bigPrefixes; with small false, the bigPrefixes alone.
func manyPrefixes(t testing.TB, small bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "redis-7.0", CreatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.BeginDB(0, record.Counts{}); err != nil {
		t.Fatal(err)
	}
	put := func(key string, n int) {
		r := record.Record{Key: []byte(key), Value: bytes.Repeat([]byte("v"), n)}
		if err := r.WriteTo(w); err != nil {
			t.Fatal(err)
		}
	}
	if small {
		for i := range 30000 {
			put(fmt.Sprintf("one%d:x", i), 20)
		}
	}
	for _, b := range bigPrefixes {
		for i := range b.keys {
			put(fmt.Sprintf("%s%d", b.name, i), 1024)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPrefixesLargestExact puts 30,000 one-key prefixes ahead of a few big ones: the big
// ones are listed, in order, with the sums of a dump of them alone, and "other" holds
// the rest exactly; read from a file (two passes) the report states no bound, read from a
// stream (one pass) it states one unless its rows are exact. --top 0 (Top < 0) lists no row.
func TestPrefixesLargestExact(t *testing.T) {
	ctx := context.Background()
	opts := inspect.Options{Now: now, Prefixes: &inspect.PrefixOptions{Top: len(bigPrefixes)}}
	alone, err := inspect.Read(ctx, bytes.NewReader(manyPrefixes(t, false)), opts)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "many.rdb")
	if err := os.WriteFile(path, manyPrefixes(t, true), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := inspect.File(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if whole.PrefixBound != 0 {
		t.Errorf("read twice, the rows are exact, yet a bound of %d is stated", whole.PrefixBound)
	}
	checkBig(t, "file", whole, alone.Prefixes, true)

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	once, err := inspect.Read(ctx, struct{ io.Reader }{f}, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Read once, the rows are exact when the big prefixes entered the table with no
	// error (their cells held nothing yet); else a bound is stated.
	exact := true
	for _, r := range once.Prefixes {
		exact = exact && r.MemoryError == 0
	}
	if !exact && once.PrefixBound <= 0 {
		t.Errorf("read once past the table's room, rows not exact and no bound stated: %+v", once.Prefixes)
	}
	checkBig(t, "stream", once, alone.Prefixes, exact && once.PrefixBound == 0)

	opts.Prefixes.Top = -1
	none, err := inspect.File(ctx, path, opts)
	if err != nil || none.Prefixes != nil {
		t.Errorf("Top -1: %v, rows %+v, want none", err, none.Prefixes)
	}
}

// checkBig checks that rep lists the prefixes of want, in order, exactly (or, not exact,
// within each row's MemoryError), then "other" summing the rest of the file's keys.
func checkBig(t *testing.T, what string, rep *inspect.Report, want []inspect.Prefix, exact bool) {
	t.Helper()
	rows := rep.Prefixes
	if len(rows) != len(bigPrefixes)+1 || !rows[len(rows)-1].Other {
		t.Fatalf("%s: rows %+v, want the %d big prefixes and other", what, rows, len(bigPrefixes))
	}
	var keys uint64
	var mem int64
	for i, b := range bigPrefixes {
		got, w := rows[i], want[i]
		switch {
		case got.Prefix != b.name:
			t.Errorf("%s: row %d is %q, want %q", what, i, got.Prefix, b.name)
		case exact && got != w:
			t.Errorf("%s: row %d %+v, want %+v", what, i, got, w)
		case !exact && (got.Memory < w.Memory || got.Memory-got.MemoryError > w.Memory):
			t.Errorf("%s: row %d memory %d (error %d), want %d within the error", what, i, got.Memory, got.MemoryError, w.Memory)
		}
		keys, mem = keys+got.Keys, mem+got.Memory
	}
	other := rows[len(rows)-1]
	if keys+other.Keys != rep.Keys || mem+other.Memory+rep.Memory.Tables != rep.Memory.Bytes {
		t.Errorf("%s: rows sum to %d keys, %d memory; want %d, %d", what, keys+other.Keys, mem+other.Memory, rep.Keys, rep.Memory.Bytes-rep.Memory.Tables)
	}
}
