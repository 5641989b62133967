package moduletest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/internal/moduletest"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// moduleKeys are the module values the dump holds, by db, each with every kind of item; a
// long repetitive 'b' item is saved LZF-compressed.
var moduleKeys = map[int]map[string][]any{
	0: {
		"m:all":  {"s", "-42", "u", "18446744073709551615", "f", "1.5", "d", "3.141592653589793", "b", "hello"},
		"m:lzf":  {"b", strings.Repeat("abcdefgh", 64), "s", "7"},
		"m:none": {},
	},
	1: {"m:db1": {"u", "1", "b", ""}},
}

// mExpireAt is the expiry of m:all, the same in every dump of one run.
var mExpireAt = time.Now().Add(time.Hour).Truncate(time.Second)

// writeModuleDump has redis-server 7.0 with the module write a dump: module values in two
// dbs, one expiring, a string and a hash beside them, AUX data before and after the keys.
func writeModuleDump(t *testing.T, so string) string {
	return writeModuleDumpThen(t, so, nil)
}

// writeModuleDumpThen is writeModuleDump with then run on the server before it saves.
func writeModuleDumpThen(t *testing.T, so string, then func(context.Context, *redis.Client) error) string {
	return redistest.WriteDumpWith(t, []string{"--loadmodule", so}, func(ctx context.Context, c *redis.Client) error {
		for _, cmd := range [][]any{{"MT.AUX", "before", "index definitions"}, {"MT.AUX", "after", "trailer data"}} {
			if err := c.Do(ctx, cmd...).Err(); err != nil {
				return err
			}
		}
		for db, keys := range moduleKeys {
			p := c.Pipeline()
			p.Select(ctx, db)
			for k, items := range keys {
				p.Do(ctx, append([]any{"MT.SET", k}, items...)...)
			}
			p.Set(ctx, fmt.Sprintf("plain:%d", db), "v", 0)
			p.HSet(ctx, "h", "f", "1")
			p.PExpireAt(ctx, "m:all", mExpireAt)
			if _, err := p.Exec(ctx); err != nil {
				return err
			}
		}
		if err := c.Do(ctx, "SELECT", 0).Err(); err != nil || then == nil {
			return err
		}
		return then(ctx, c)
	})
}

// state is what a server answers about the data: MT.GET of every module key, MT.AUXGET and
// DEBUG DIGEST of each db.
func state(t *testing.T, addr string, aux bool) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, db := range []int{0, 1} {
		c := servertest.Client(t, addr, db)
		for _, k := range slices.Sorted(maps.Keys(moduleKeys[db])) {
			v, err := c.Do(ctx, "MT.GET", k).Result()
			typ, _ := c.Type(ctx, k).Result()
			fmt.Fprintf(&b, "db %d %s %s %v %v\n", db, k, typ, v, err)
		}
		d, err := c.Do(ctx, "DEBUG", "DIGEST").Result()
		fmt.Fprintf(&b, "db %d digest %v %v\n", db, d, err)
		ttl, _ := c.PTTL(ctx, "m:all").Result()
		fmt.Fprintf(&b, "db %d m:all expires %v\n", db, db == 0 && ttl > 0)
	}
	if aux {
		v, err := servertest.Client(t, addr, 0).Do(ctx, "MT.AUXGET").Result()
		fmt.Fprintf(&b, "aux %v %v\n", v, err)
	}
	return b.String()
}

// TestModuleDump carries a dump that redis-server wrote with rdbgen's test module through
// convert (every target), load (every method) and the reader, and checks with a server that
// has the module: MT.GET, MT.AUXGET and DEBUG DIGEST answer as on the dump itself.
func TestModuleDump(t *testing.T) {
	ctx := context.Background()
	so := moduletest.Build(t)
	dump := writeModuleDump(t, so)
	args := []string{"--loadmodule", so, "--enable-debug-command", "yes"}
	want := state(t, servertest.Start(t, dump, args...).Addr, true)
	if !strings.Contains(want, "m:all "+moduletest.TypeName+" [s -42 u 18446744073709551615 f 1.5 d 3.1415926535897931 b hello]") ||
		!strings.Contains(want, "aux [index definitions trailer data]") || !strings.Contains(want, "m:all expires true") {
		t.Fatalf("the dump's own server answers\n%s", want)
	}

	// The reader: records of type module, counted per module, and both AUX records.
	var rec record.Recorder
	rd, err := decoder.File{Path: dump}.Read(ctx, &rec)
	if err != nil {
		t.Fatal(err)
	}
	st := rd.Stats()
	if st.Modules[moduletest.TypeName] != 4 || st.ModuleAux[moduletest.TypeName] != 2 || len(rec.ModuleAux) != 2 ||
		rec.ModuleAux[0].When != record.ModuleAuxBefore || rec.ModuleAux[1].When != record.ModuleAuxAfter {
		t.Fatalf("stats %+v, module AUX %+v", st, rec.ModuleAux)
	}

	// convert: every target; those a 7.0 server loads are loaded and compared, the others
	// read back to the same records (no newer server runs here).
	for _, target := range []string{"redis-5.0", "redis-6.2", "redis-7.0", "redis-7.2", "redis-7.4", "valkey-8.0"} {
		out := filepath.Join(t.TempDir(), target+".rdb")
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		_, cs, err := convert.Write(ctx, f, decoder.File{Path: dump}, output.Options{Encoder: encoder.Options{Target: target}}, convert.Options{})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil || cs.ModuleAux != 2 || cs.Unsupported != 0 {
			t.Fatalf("convert to %s: %v %+v", target, err, cs)
		}
		var again record.Recorder
		if err := (decoder.File{Path: out}).WriteTo(ctx, &again); err != nil || !reflect.DeepEqual(again.Records, rec.Records) || !reflect.DeepEqual(again.ModuleAux, rec.ModuleAux) {
			t.Fatalf("%s: read back %v", target, err)
		}
		tg, _ := rdb.LookupTarget(target)
		if tg.RDBVersion > 10 {
			continue
		}
		if b, err := exec.Command(redistest.RedisCheckRDB(t), out).CombinedOutput(); err != nil || !bytes.Contains(b, []byte("RDB looks OK")) {
			t.Fatalf("redis-check-rdb %s: %v\n%s", target, err, b)
		}
		if got := state(t, servertest.Start(t, out, args...).Addr, true); got != want {
			t.Errorf("%s: the server answers\n%s\nwant\n%s", target, got, want)
		}
	}

	// load: every method, into a server with the module; module AUX data has no command.
	inst := servertest.StartEmpty(t, args...)
	if _, err := loader.Load(ctx, decoder.File{Path: dump}, loader.Options{Addr: inst.Addr}); !errors.Is(err, record.ErrModuleAuxUnsupported) ||
		!strings.Contains(err.Error(), `"rdbgen-mt"`) || !strings.Contains(err.Error(), "--drop-module-aux") {
		t.Fatalf("load without DropModuleAux: %v", err)
	}
	for _, m := range loader.Methods() {
		for _, db := range []int{0, 1} {
			if err := servertest.Client(t, inst.Addr, db).FlushDB(ctx).Err(); err != nil {
				t.Fatal(err)
			}
		}
		res, err := loader.Load(ctx, decoder.File{Path: dump}, loader.Options{Addr: inst.Addr, Method: m, DropModuleAux: true})
		if err != nil || res.ModuleAuxDropped != 2 {
			t.Fatalf("load %s: %v, %+v", m, err, res)
		}
		if got := state(t, inst.Addr, false); !strings.HasPrefix(want, got) {
			t.Errorf("load %s: the server answers\n%s\nwant\n%s", m, got, want)
		}
	}

	// A server without the module: the load names it before any of its keys.
	bare := servertest.StartEmpty(t)
	_, err = loader.Load(ctx, decoder.File{Path: dump}, loader.Options{Addr: bare.Addr, DropModuleAux: true})
	if !errors.Is(err, loader.ErrModuleNotLoaded) || !strings.Contains(err.Error(), `module type "rdbgen-mt"`) || !strings.Contains(err.Error(), "--loadmodule") {
		t.Fatalf("load into a server without the module: %v", err)
	}
}
