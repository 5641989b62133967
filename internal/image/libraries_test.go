package image

import (
	"debug/elf"
	"errors"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
)

// dynamicSelf returns the path of this test binary and its interpreter: it links
// go-redis, and so net, which cgo (on by default where a C compiler is) links dynamically.
func dynamicSelf(t *testing.T) (string, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	interp, dynamic, err := interpreterOf(f)
	if err != nil {
		t.Fatal(err)
	}
	if !dynamic {
		redistest.Missing(t, "the test binary %s is not linked dynamically: run the tests with cgo on (CGO_ENABLED=1 and a C compiler)", exe)
	}
	return exe, interp
}

// TestCheckBinaryOfTestBinary reads the libraries of this test binary as the image would
// carry them, and compares the files with those ldd, which runs the loader, lists.
func TestCheckBinaryOfTestBinary(t *testing.T) {
	exe, interp := dynamicSelf(t)
	libs, err := checkBinary(exe, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(libs) < 2 || libs[0].Name != path.Base(interp) || libs[0].Path != interp {
		t.Fatalf("libraries %+v: want the interpreter %s first, then libc", libs, interp)
	}
	var got []string
	names := map[string]bool{}
	for _, l := range libs {
		if names[l.Name] || strings.Contains(l.Name, "/") {
			t.Fatalf("name %q twice or with a slash in %+v", l.Name, libs)
		}
		names[l.Name] = true
		real, err := filepath.EvalSymlinks(l.Path)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, real)
	}
	var want []string
	for _, p := range redistest.Libraries(t, exe) {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, real)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("libraries %q, ldd lists %q", got, want)
	}

	// A static executable needs nothing.
	if libs, err := checkBinary(writeELF(t, elf.EM_X86_64, false), "amd64"); err != nil || libs != nil {
		t.Fatalf("static: %+v, %v", libs, err)
	}
}

// copyTo copies the file at src to root/dst.
func copyTo(t *testing.T, src, root, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	dst = filepath.Join(root, dst)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
}

// writeLDCache writes an ld.so cache in the new format into root, of the entries name → path.
func writeLDCache(t *testing.T, root string, oldFirst bool, entries ...[2]string) {
	t.Helper()
	var es []ldEntry
	for _, e := range entries {
		es = append(es, ldEntry{e[0], e[1], 0})
	}
	if err := os.MkdirAll(filepath.Join(root, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "/etc/ld.so.cache"), ldCacheBytes(oldFirst, es...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResolverInTree resolves this test binary's interpreter and libc in trees of files
// that stand for the machine: where the loader finds them, and the error naming what is
// missing.
func TestResolverInTree(t *testing.T) {
	exe, interp := dynamicSelf(t)
	host, err := checkBinary(exe, "")
	if err != nil {
		t.Fatal(err)
	}
	// libc.so.6 moves from tree to tree; any other library the binary needs (none with
	// glibc 2.34 and later) stays in /usr/lib.
	libc := ""
	var rest []Library
	for _, l := range host[1:] {
		if l.Name == "libc.so.6" {
			libc = l.Path
		} else {
			rest = append(rest, l)
		}
	}
	if libc == "" {
		t.Fatalf("no libc.so.6 in %+v", host)
	}
	other := writeELF(t, elf.EM_AARCH64, false) // a file of another machine
	if libsMachine(t, libc) == elf.EM_AARCH64 {
		other = writeELF(t, elf.EM_X86_64, false)
	}
	tests := []struct {
		name  string
		tree  func(root string)
		env   []string
		want  string // where libc.so.6 is found, in the tree
		error string
	}{
		{"default directory", func(root string) {
			copyTo(t, interp, root, interp)
			copyTo(t, libc, root, "/usr/lib/libc.so.6")
		}, nil, "/usr/lib/libc.so.6", ""},
		{"another machine's library passed over", func(root string) {
			copyTo(t, interp, root, interp)
			copyTo(t, other, root, "/lib/libc.so.6")
			copyTo(t, libc, root, "/usr/lib/libc.so.6")
		}, nil, "/usr/lib/libc.so.6", ""},
		{"LD_LIBRARY_PATH before the defaults", func(root string) {
			copyTo(t, interp, root, interp)
			copyTo(t, libc, root, "/usr/lib/libc.so.6")
			copyTo(t, libc, root, "/opt/glibc/libc.so.6")
		}, []string{"/opt/glibc"}, "/opt/glibc/libc.so.6", ""},
		{"ld.so cache before the defaults", func(root string) {
			copyTo(t, interp, root, interp)
			copyTo(t, libc, root, "/usr/lib/libc.so.6")
			copyTo(t, libc, root, "/srv/libs/libc.so.6")
			writeLDCache(t, root, false, [2]string{"libm.so.6", "/srv/libs/libm.so.6"}, [2]string{"libc.so.6", "/srv/libs/libc.so.6"})
		}, nil, "/srv/libs/libc.so.6", ""},
		{"ld.so cache after the old format", func(root string) {
			copyTo(t, interp, root, interp)
			copyTo(t, libc, root, "/srv/libs/libc.so.6")
			writeLDCache(t, root, true, [2]string{"libc.so.6", "/srv/libs/libc.so.6"})
		}, nil, "/srv/libs/libc.so.6", ""},
		{"no interpreter", func(root string) {
			copyTo(t, libc, root, "/usr/lib/libc.so.6")
		}, nil, "", "is linked dynamically, and its interpreter " + interp + " is not on this machine (no such file or directory); build one with CGO_ENABLED=0"},
		{"interpreter of another machine", func(root string) {
			copyTo(t, other, root, interp)
		}, nil, "", "is linked dynamically, and its interpreter " + interp + " is not on this machine ("},
		{"libc missing", func(root string) {
			copyTo(t, interp, root, interp)
		}, nil, "", "is linked dynamically, and it needs the library libc.so.6, which is not on this machine for "},
		{"libc missing: where the loader looked, the way out", func(root string) {
			copyTo(t, interp, root, interp)
		}, nil, "", "(not in its ld.so cache, LD_LIBRARY_PATH or /lib/" + multiarch[libsMachine(t, exe)] + ", /usr/lib/" + multiarch[libsMachine(t, exe)] +
			", /lib64, /usr/lib64, /lib, /usr/lib); install it, or build one with CGO_ENABLED=0 GOOS=linux go build ./cmd/rdbgen and name it with --rdbgen-binary"},
		{"libc of another machine only", func(root string) {
			copyTo(t, interp, root, interp)
			copyTo(t, other, root, "/usr/lib/libc.so.6")
		}, nil, "", "needs the library libc.so.6, which is not on this machine"},
		{"cache naming a file that is gone", func(root string) {
			copyTo(t, interp, root, interp)
			writeLDCache(t, root, false, [2]string{"libc.so.6", "/srv/libs/libc.so.6"})
		}, nil, "", "needs the library libc.so.6, which is not on this machine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			tt.tree(root)
			for _, l := range rest {
				copyTo(t, l.Path, root, "/usr/lib/"+l.Name)
			}
			bin := filepath.Join(root, "usr/local/bin/rdbgen")
			copyTo(t, exe, root, "/usr/local/bin/rdbgen")
			r := &resolver{root: root, env: tt.env}
			libs, err := r.checkBinary(bin, "")
			if tt.error != "" {
				if !errors.Is(err, ErrInvalidOption) || !strings.Contains(err.Error(), tt.error) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("got %v, want %q", err, tt.error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := []Library{{path.Base(interp), filepath.Join(root, interp)}, {"libc.so.6", filepath.Join(root, tt.want)}}
			for _, l := range rest {
				want = append(want, Library{l.Name, filepath.Join(root, "/usr/lib", l.Name)})
			}
			byName := func(a, b Library) int { return strings.Compare(a.Name, b.Name) }
			if len(libs) > 0 {
				slices.SortFunc(libs[1:], byName) // the loader's order of the others does not matter
			}
			slices.SortFunc(want[1:], byName)
			if !slices.Equal(libs, want) {
				t.Fatalf("libraries %+v, want %+v", libs, want)
			}
		})
	}
}

// libsMachine returns the machine of the ELF file at p.
func libsMachine(t *testing.T, p string) elf.Machine {
	t.Helper()
	f, err := elf.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return f.Machine
}

func TestResolverExpand(t *testing.T) {
	root := t.TempDir()
	copyTo(t, "/dev/null", root, "/opt/app/bin/rdbgen")
	if err := os.Symlink("opt/app/bin/rdbgen", filepath.Join(root, "rdbgen-link")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		root    string
		entries []string
		obj     string
		want    []string
	}{
		{"none", "", nil, "/usr/bin/x", nil},
		{"plain and empty entries", "", []string{"/a:/b", "", "::/c"}, "/usr/bin/x", []string{"/a", "/b", "/c"}},
		{"$ORIGIN", "", []string{"$ORIGIN/../lib:${ORIGIN}"}, "/usr/bin/x", []string{"/usr/bin/../lib", "/usr/bin"}},
		{"$ORIGIN in a tree", root, []string{"$ORIGIN/../lib"}, filepath.Join(root, "opt/app/bin/rdbgen"), []string{"/opt/app/bin/../lib"}},
		{"$ORIGIN of a link is its target's directory", root, []string{"$ORIGIN"}, filepath.Join(root, "rdbgen-link"), []string{"/opt/app/bin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &resolver{root: tt.root}
			if got := r.expand(tt.entries, tt.obj); !slices.Equal(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestResolverRunpath: a binary's DT_RUNPATH ($ORIGIN/../lib, as go build -ldflags=-r sets
// it) comes after LD_LIBRARY_PATH and before the default directories, as for the loader.
func TestResolverRunpath(t *testing.T) {
	exe, interp := dynamicSelf(t)
	host, err := checkBinary(exe, "")
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module runpath\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\n// #include <stdlib.h>\nimport \"C\"\n\nfunc main() { C.abs(1) }\n"), 0o644)
	bin := filepath.Join(src, "runpath")
	build := exec.Command("go", "build", "-ldflags=-r=$ORIGIN/../lib", "-o", bin, ".")
	build.Dir, build.Env = src, append(os.Environ(), "CGO_ENABLED=1", "GOWORK=off", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"runpath before the defaults", nil, "/opt/app/lib/libc.so.6"},
		{"LD_LIBRARY_PATH before runpath", []string{"/opt/glibc"}, "/opt/glibc/libc.so.6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			copyTo(t, interp, root, interp)
			copyTo(t, bin, root, "/opt/app/bin/runpath")
			for _, l := range host[1:] {
				for _, dir := range []string{"/usr/lib", "/opt/app/lib", "/opt/glibc"} {
					copyTo(t, l.Path, root, dir+"/"+l.Name)
				}
			}
			r := &resolver{root: root, env: tt.env}
			libs, err := r.checkBinary(filepath.Join(root, "/opt/app/bin/runpath"), "")
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(libs, func(l Library) bool { return l.Name == "libc.so.6" })
			if i < 0 || libs[i].Path != filepath.Join(root, tt.want) {
				t.Fatalf("libraries %+v, want libc.so.6 at %s", libs, tt.want)
			}
		})
	}
}
