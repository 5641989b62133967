package moduletest_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/export"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/internal/moduletest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
)

// TestModuleExportImport exports a dump that redis-server wrote with rdbgen's test module
// (module values in two dbs, one expiring, AUX data before and after the keys), in both
// JSON formats, imports it into an RDB 10 file and checks with a server that has the
// module: MT.GET, MT.AUXGET and DEBUG DIGEST answer as on the dump itself.
func TestModuleExportImport(t *testing.T) {
	ctx := context.Background()
	so := moduletest.Build(t)
	dump := writeModuleDump(t, so)
	args := []string{"--loadmodule", so, "--enable-debug-command", "yes"}
	want := state(t, servertest.Start(t, dump, args...).Addr, true)
	for _, f := range []export.Format{export.FormatJSON, export.FormatJSONL} {
		var out bytes.Buffer
		w, err := export.NewWriter(&out, export.Options{Format: f})
		if err != nil {
			t.Fatal(err)
		}
		if err := (decoder.File{Path: dump}).WriteTo(ctx, w); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if strings.Count(text, `"type":"module","moduleType":"rdbgen-mt","encodingVersion":1,"serialized":"`) != 4 ||
			!strings.Contains(text, `"when":"before"`) || !strings.Contains(text, `"when":"after"`) {
			t.Fatalf("%s: export\n%s", f, text)
		}
		path := filepath.Join(t.TempDir(), "back.rdb")
		fh, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		rdb, err := rdbsink.NewWriter(fh, encoder.Options{Target: "redis-7.0"})
		if err != nil {
			t.Fatal(err)
		}
		open := func() (importer.Reader, error) { return importer.NewJSONReader(bytes.NewReader(out.Bytes())), nil }
		st, err := importer.Copy(ctx, rdb, open, importer.Options{})
		if err == nil {
			err = rdb.Close()
		}
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil || st.ModuleAux != 2 {
			t.Fatalf("%s: import: %v %+v", f, err, st)
		}
		if got := state(t, servertest.Start(t, path, args...).Addr, true); got != want {
			t.Errorf("%s: the server answers\n%s\nwant\n%s", f, got, want)
		}
	}
}
