package decoder_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// events is a Sink that notes, in order, the databases begun, the keys and the function
// libraries it receives.
type events struct {
	record.Collector
	got []string
}

func (e *events) BeginDB(db int, c record.Counts) error {
	e.got = append(e.got, fmt.Sprintf("db %d", db))
	return e.Collector.BeginDB(db, c)
}

func (e *events) Begin(h *record.Header) error {
	e.got = append(e.got, "key "+string(h.Key))
	return nil
}

func (e *events) WriteFunction(code []byte) error {
	e.got = append(e.got, record.LibraryLabel(code))
	return e.Collector.WriteFunction(code)
}

// noFunctions is a Sink that cannot carry function libraries.
type noFunctions struct {
	*record.Collector
	record.RefuseFunctions
}

func (n noFunctions) WriteFunction(code []byte) error { return n.RefuseFunctions.WriteFunction(code) }

// TestReadFunctions reads the dump of a real Redis 7.0 that holds two function libraries:
// both reach the sink, with their code as loaded, before the first database, in file order;
// a sink that cannot carry them stops the reading with an error naming the library.
func TestReadFunctions(t *testing.T) {
	path := redistest.WriteFunctionDump(t, false)
	var e events
	rd, err := decoder.File{Path: path}.Read(context.Background(), &e)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Functions) != 2 || len(rd.Functions()) != 2 {
		t.Fatalf("the sink got %d libraries, the reader counted %d; want 2", len(e.Functions), len(rd.Functions()))
	}
	for i, code := range e.Functions {
		if string(code) != rd.Functions()[i] || !slices.Contains(redistest.FunctionLibraries, string(code)) {
			t.Fatalf("library %d: %q, the reader's %q; want one of the loaded libraries", i, code, rd.Functions()[i])
		}
	}
	if !strings.HasPrefix(e.got[0], "function library") || !strings.HasPrefix(e.got[1], "function library") || e.got[2] != "db 0" {
		t.Fatalf("events %q: want the two libraries before db 0", e.got)
	}

	_, err = decoder.File{Path: path}.Read(context.Background(), noFunctions{Collector: &record.Collector{}})
	if !errors.Is(err, record.ErrFunctionsUnsupported) || !strings.Contains(err.Error(), `function library "`) {
		t.Fatalf("a sink without functions: %v; want ErrFunctionsUnsupported naming the library", err)
	}
}

// TestReadFunctionsBetweenDBs: a library between databases (as a file may hold one) reaches
// the sink where it stands, its code LZF-compressed or not.
func TestReadFunctionsBetweenDBs(t *testing.T) {
	long := "#!lua name=long\n" + strings.Repeat("-- padding that compresses well\n", 20) + "redis.register_function('f', function() return 1 end)\n"
	for _, compress := range []bool{false, true} {
		var buf bytes.Buffer
		w, err := rdbsink.NewWriter(&buf, encoder.Options{Target: "redis-7.0", DisableCompression: !compress})
		if err != nil {
			t.Fatal(err)
		}
		steps := []error{
			w.WriteFunction([]byte("#!lua name=first\nreturn 1")),
			w.BeginDB(0, record.Counts{}),
			w.Begin(&record.Header{Key: []byte("a"), Type: record.String, Value: []byte("1")}),
			w.WriteFunction([]byte(long)),
			w.BeginDB(2, record.Counts{}),
			w.Begin(&record.Header{Key: []byte("b"), Type: record.String, Value: []byte("2")}),
			w.Close(),
		}
		if err := errors.Join(steps...); err != nil {
			t.Fatal(err)
		}
		if compress && bytes.Contains(buf.Bytes(), []byte("padding that compresses well\n--")) {
			t.Fatal("the long library was not compressed")
		}
		rd, err := decoder.NewReader(&buf, decoder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var e events
		if err := rd.WriteTo(context.Background(), &e); err != nil {
			t.Fatal(err)
		}
		want := []string{`function library "first"`, "db 0", "key a", `function library "long"`, "db 2", "key b"}
		if !slices.Equal(e.got, want) || string(e.Functions[1]) != long {
			t.Fatalf("compress %v: events %q, want %q", compress, e.got, want)
		}
	}
}
