// Package moduletest builds rdbgen's own test module, testdata/rdbgenmt.c: a Redis module
// with a module type "rdbgen-mt" whose values use every RDB module opcode and with AUX data
// saved before and after the keyspace (MT.SET, MT.GET, MT.AUX, MT.AUXGET; DEBUG DIGEST).
// It declares the module ABI itself: gcc alone builds it.
package moduletest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
)

// TypeName is the module type's name, as TYPE answers and record.ModuleName reads it.
const TypeName = "rdbgen-mt"

// Build compiles the module with gcc -shared -fPIC -O2 into a temporary directory and
// returns the path of the shared object, for redis-server --loadmodule. A missing gcc is a
// failure in CI, as a missing redis-server is (redistest.Missing).
func Build(t testing.TB) string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		redistest.Missing(t, "gcc is not installed: %v", err)
	}
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "testdata", "rdbgenmt.c")
	out := filepath.Join(t.TempDir(), "rdbgenmt.so")
	if b, err := exec.Command(gcc, "-shared", "-fPIC", "-O2", "-o", out, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", src, err, b)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
	return out
}
