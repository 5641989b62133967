package export_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/core"
	"github.com/hdt3213/rdb/helper"
	"github.com/hdt3213/rdb/model"

	"github.com/rdbgen/rdbgen/export"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// serverDumps are the dumps redis-server 7.0.15 wrote (see their README).
var serverDumps = []string{"types.rdb", "encodings.rdb"}

// dumpPath returns the path of one of serverDumps.
func dumpPath(name string) string {
	return filepath.Join("..", "cmd", "rdbgen", "testdata", "dumps", name)
}

// withoutFunctions returns the path of the dump a real redis-server writes after loading
// the dump at path and flushing its function libraries, which hdt3213's parser v1.1.0
// cannot read (it stops at their opcode). Everything else is the server's own writing of
// the same data (the keys expired by now left out, as the server drops them).
func withoutFunctions(t *testing.T, path string) string {
	t.Helper()
	c, dir := server(t, path)
	if err := c.FunctionFlush(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "dump.rdb")
}

// exportDump exports the dump at path in format f, with the Detail a decoder.Reader tells.
func exportDump(t *testing.T, path string, f export.Format) []byte {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rd, err := decoder.NewReader(fh, decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w, err := export.NewWriter(&out, export.Options{Format: f, Detail: func(d *export.Detail) {
		d.Encoding, d.StreamVersion = export.RDBEncoding(rd.RecordType())
		d.Bytes = rd.Offset() - rd.RecordOffset()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.WriteTo(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// hdtObjects returns the objects that hdt3213's converter (helper.ToJsons, what
// `rdb -c json` runs) writes for the dump at path, by "db/key"; and the keys its parser
// reads that the converter leaves out (it cannot marshal infinite scores).
func hdtObjects(t *testing.T, path string) (map[string]map[string]any, []string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "hdt3213.json")
	if err := helper.ToJsons(path, out, helper.WithConcurrent(2)); err != nil {
		t.Fatalf("hdt3213: %v", err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatalf("hdt3213's JSON: %v", err)
	}
	objs := map[string]map[string]any{}
	for _, o := range list {
		objs[fmt.Sprintf("%v/%v", o["db"], o["key"])] = o
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var left []string
	err = core.NewDecoder(fh).Parse(func(o model.RedisObject) bool {
		if name := fmt.Sprintf("%d/%s", o.GetDBIndex(), o.GetKey()); objs[name] == nil {
			left = append(left, name)
		}
		return true
	})
	if err != nil {
		t.Fatalf("hdt3213: %v", err)
	}
	return objs, left
}

// normalize makes an object of either converter comparable: "size" (each tool's own memory
// estimate) left out, an expiration as Unix ms (hdt3213 writes the local zone), and a
// stream's entries as the list of its live messages (hdt3213 writes the file's listpack
// nodes and the deleted entries in them, which are not data).
func normalize(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	delete(v, "size")
	if e, ok := v["expiration"].(string); ok {
		tm, err := time.Parse(time.RFC3339Nano, e)
		if err != nil {
			t.Fatal(err)
		}
		v["expiration"] = tm.UnixMilli()
	}
	if nodes, ok := v["entries"].([]any); ok && v["type"] == "stream" {
		var msgs []any
		for _, n := range nodes {
			for _, m := range n.(map[string]any)["msgs"].([]any) {
				if msg := m.(map[string]any); msg["deleted"] != true {
					msgs = append(msgs, msg)
				}
			}
		}
		v["entries"] = msgs
	}
	return v
}

// TestSameAsHdt3213: for dumps a real server wrote, the JSON equals what hdt3213's
// converter writes for the same file, compared as parsed JSON (see normalize), key by key;
// the keys it leaves out (it fails on infinite scores) are the sorted sets whose export
// holds "inf" or "-inf". Its raw bytes that are not UTF-8 and this export's \udcXX both
// read as U+FFFD in encoding/json.
func TestSameAsHdt3213(t *testing.T) {
	for _, name := range serverDumps {
		t.Run(name, func(t *testing.T) {
			path := withoutFunctions(t, dumpPath(name))
			want, failed := hdtObjects(t, path)
			if len(want) < 20 {
				t.Fatalf("hdt3213 read %d keys: too few for a test", len(want))
			}
			got := map[string]map[string]any{}
			for _, f := range []export.Format{export.FormatJSON, export.FormatJSONL} {
				out := exportDump(t, path, f)
				var objs []map[string]any
				if f == export.FormatJSON {
					if err := json.Unmarshal(out, &objs); err != nil {
						t.Fatalf("%s: %v", f, err)
					}
				} else {
					for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
						var v map[string]any
						if err := json.Unmarshal([]byte(line), &v); err != nil {
							t.Fatalf("%s: %v: %s", f, err, line)
						}
						objs = append(objs, v)
					}
				}
				for _, o := range objs {
					got[fmt.Sprintf("%s %v/%v", f, o["db"], o["key"])] = o
				}
			}
			for _, w := range want {
				normalize(t, w)
			}
			for _, f := range []export.Format{export.FormatJSON, export.FormatJSONL} {
				for _, k := range failed {
					o := got[fmt.Sprintf("%s %s", f, k)]
					data, _ := json.Marshal(o)
					if o["type"] != "zset" || !strings.Contains(string(data), `"inf"`) {
						t.Errorf("%s: hdt3213 cannot write %s, and the export is %s", f, k, data)
					}
					delete(got, fmt.Sprintf("%s %s", f, k))
				}
				for k, w := range want {
					g, ok := got[fmt.Sprintf("%s %s", f, k)]
					if !ok {
						t.Errorf("%s: %s missing", f, k)
						continue
					}
					if gn, wn := normalize(t, g), w; !reflect.DeepEqual(gn, wn) {
						gd, _ := json.Marshal(gn)
						wd, _ := json.Marshal(wn)
						t.Errorf("%s: %s:\n got %.600s\nwant %.600s", f, k, gd, wd)
					}
					delete(got, fmt.Sprintf("%s %s", f, k))
				}
			}
			for k := range got {
				t.Errorf("exported %s, which hdt3213 does not read", k)
			}
		})
	}
}
