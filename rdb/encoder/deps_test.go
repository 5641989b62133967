package encoder

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is this module's path: the format's vocabulary (rdb) and its internal packages
// (rdb/internal) may be imported when they use the standard library only themselves.
const module = "github.com/rdbgen/rdbgen"

// TestStandardLibraryOnly checks that the writer imports the standard library only, in
// every file of any build (test files aside), directly or through packages of this module
// that do the same (rdb, rdb/internal/lzf, crc64, canonint, listpack, ziplist, intset): no
// other package of this module, such as record, and no other module. A standard-library
// path has no dot in its first element.
func TestStandardLibraryOnly(t *testing.T) {
	checked := map[string]int{} // directory: files checked
	var check func(dir string)
	check = func(dir string) {
		if _, done := checked[dir]; done {
			return
		}
		checked[dir] = 0
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path == module+"/rdb" {
					check("..")
					continue
				}
				if rel, ok := strings.CutPrefix(path, module+"/rdb/internal/"); ok {
					check(filepath.Join("..", "internal", filepath.FromSlash(rel)))
					continue
				}
				if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
					t.Errorf("%s imports %s, outside the standard library", name, path)
				}
			}
			checked[dir]++
		}
	}
	check(".")
	if checked["."] < 10 {
		t.Fatalf("checked %d files, want the package's", checked["."])
	}
	for _, dir := range []string{"..", "../internal/lzf", "../internal/crc64", "../internal/canonint", "../internal/listpack", "../internal/ziplist", "../internal/intset"} {
		if checked[filepath.Clean(dir)] == 0 {
			t.Errorf("%s was not checked: the writer no longer imports it, or the test lost it", dir)
		}
	}
}
