package loader_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestLoadFunctions loads a real Redis 7.0 dump holding two function libraries, by every
// method: the server gets the dump's FUNCTION LIST WITHCODE and DEBUG DIGEST and the result
// counts the libraries; loaded again, a library the server has is an error naming it before
// any key, unless ReplaceFunctions.
func TestLoadFunctions(t *testing.T) {
	dump := redistest.WriteFunctionDump(t, false)
	orig := servertest.Start(t, dump, debugArgs...)
	wantLibs, wantDigest := redistest.FunctionList(t, orig.Client()), digest(t, orig.Addr)
	if len(wantLibs) != 2 {
		t.Fatalf("the dump's server holds %d libraries, want 2", len(wantLibs))
	}
	var inFile record.Collector
	if _, err := (decoder.File{Path: dump}).Read(t.Context(), &inFile); err != nil {
		t.Fatal(err)
	}
	first, err := record.LibraryName(inFile.Functions[0])
	if err != nil {
		t.Fatal(err)
	}
	second, err := record.LibraryName(inFile.Functions[1])
	if err != nil {
		t.Fatal(err)
	}
	srv := servertest.StartEmpty(t, debugArgs...)
	for _, m := range loader.Methods() {
		t.Run(string(m), func(t *testing.T) {
			if err := srv.Client().FunctionFlush(t.Context()).Err(); err != nil {
				t.Fatal(err)
			}
			flush(t, srv.Addr)
			src := decoder.File{Path: dump}
			res, err := loader.Load(t.Context(), src, loader.Options{Addr: srv.Addr, Method: m})
			if err != nil || res.Functions != 2 {
				t.Fatalf("Load: %v, %d libraries", err, res.Functions)
			}
			if got := redistest.FunctionList(t, srv.Client()); !reflect.DeepEqual(got, wantLibs) {
				t.Fatalf("FUNCTION LIST %v, want %v", got, wantLibs)
			}
			if got := digest(t, srv.Addr); got != wantDigest {
				t.Fatalf("DEBUG DIGEST %s, want %s", got, wantDigest)
			}
			flush(t, srv.Addr)
			res, err = loader.Load(t.Context(), src, loader.Options{Addr: srv.Addr, Method: m})
			if err == nil || !strings.Contains(err.Error(), "already has a library of that name") || res.Keys != 0 || digest(t, srv.Addr) != emptyDigest {
				t.Fatalf("loaded again: %v, %d keys; want an error naming the library before any key", err, res.Keys)
			}
			// A server that has the dump's second library: the first, loaded before the
			// error, is not left behind.
			if err := srv.Client().FunctionDelete(t.Context(), first).Err(); err != nil {
				t.Fatal(err)
			}
			if _, err = loader.Load(t.Context(), src, loader.Options{Addr: srv.Addr, Method: m}); err == nil || !strings.Contains(err.Error(), `function library "`+second+`"`) {
				t.Fatalf("a server with %s: %v; want an error naming it", second, err)
			}
			if got := redistest.FunctionList(t, srv.Client()); len(got) != 1 || got[0].Name != second {
				t.Fatalf("after the error the server lists %v; want %s alone, as before", got, second)
			}
			res, err = loader.Load(t.Context(), src, loader.Options{Addr: srv.Addr, Method: m, ReplaceFunctions: true})
			if err != nil || res.Functions != 2 || digest(t, srv.Addr) != wantDigest {
				t.Fatalf("ReplaceFunctions: %v, %d libraries", err, res.Functions)
			}
		})
	}
}

// TestLoadFunctionsIntoCluster: every primary of a cluster gets the libraries, by every
// method, and the keys go to their slots' primaries.
func TestLoadFunctionsIntoCluster(t *testing.T) {
	dump := redistest.WriteFunctionDump(t, true)
	orig := servertest.Start(t, dump, debugArgs...)
	wantLibs := redistest.FunctionList(t, orig.Client())
	c, _ := servertest.StartCluster(t)
	for _, m := range loader.Methods() {
		t.Run(string(m), func(t *testing.T) {
			for _, n := range c.Nodes {
				if err := n.Client().FlushAll(t.Context()).Err(); err != nil {
					t.Fatal(err)
				}
				if err := n.Client().FunctionFlush(t.Context()).Err(); err != nil {
					t.Fatal(err)
				}
			}
			res, err := loader.Load(t.Context(), decoder.File{Path: dump}, loader.Options{Addr: c.Nodes[0].Addr, Cluster: true, Method: m})
			if err != nil || res.Functions != 2 || res.Keys != 6 {
				t.Fatalf("Load: %v, %d libraries, %d keys", err, res.Functions, res.Keys)
			}
			for _, n := range c.Nodes {
				if got := redistest.FunctionList(t, n.Client()); !reflect.DeepEqual(got, wantLibs) {
					t.Fatalf("node %s: FUNCTION LIST %v, want %v", n.Addr, got, wantLibs)
				}
			}
		})
	}
}

// TestLoadFunctionsOneShard loads a dump with function libraries into a cluster one shard
// at a time, as the pods of an Indexed Job do: each load puts the libraries into its own
// primary alone, so that the loads after the first find no library of that name already
// there, and every primary ends with them.
func TestLoadFunctionsOneShard(t *testing.T) {
	dump := redistest.WriteFunctionDump(t, true)
	orig := servertest.Start(t, dump, debugArgs...)
	wantLibs := redistest.FunctionList(t, orig.Client())
	c, layout := servertest.StartCluster(t)
	for _, n := range c.Nodes {
		if err := n.Client().FunctionFlush(t.Context()).Err(); err != nil {
			t.Fatal(err)
		}
	}
	for shard := range layout.Len() {
		res, err := loader.Load(t.Context(), decoder.File{Path: dump}, loader.Options{Addr: c.Nodes[0].Addr, Cluster: true, Shard: &shard, Shards: layout.Len()})
		if err != nil || res.Functions != 2 {
			t.Fatalf("shard %d: %v, %d libraries", shard, err, res.Functions)
		}
		for i, n := range c.Nodes {
			got := redistest.FunctionList(t, n.Client())
			if i <= shard && !reflect.DeepEqual(got, wantLibs) || i > shard && len(got) != 0 {
				t.Fatalf("after shard %d, node %d: FUNCTION LIST %v", shard, i, got)
			}
		}
	}
}
