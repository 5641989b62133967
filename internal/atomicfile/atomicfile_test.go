package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestCommitCreates(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.rdb")
	f, err := Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the path exists before Commit")
	}
	f.WriteString("new")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new" {
		t.Fatalf("content %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", fi.Mode().Perm())
	}
	if es := entries(t, dir); len(es) != 1 {
		t.Fatalf("directory holds %v, want only dump.rdb", es)
	}
	if err := f.Abort(); err != nil {
		t.Fatalf("Abort after Commit: %v", err)
	}
}

func TestExistingFileIsKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.rdb")
	os.WriteFile(path, []byte("good"), 0o644)
	_, err := Create(path, false)
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("Create over an existing file: %v", err)
	}
	if got := readFile(t, path); got != "good" {
		t.Fatalf("existing file changed to %q", got)
	}
}

func TestFileAppearingMeanwhileIsKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.rdb")
	f, err := Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	os.WriteFile(path, []byte("theirs"), 0o644)
	if err := f.Commit(); !errors.Is(err, ErrExists) {
		t.Fatalf("Commit over a file that appeared: %v", err)
	}
	if got := readFile(t, path); got != "theirs" {
		t.Fatalf("file changed to %q", got)
	}
	if es := entries(t, dir); len(es) != 1 {
		t.Fatalf("temporary file left behind: %v", es)
	}
}

func TestOverwrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.rdb")
	os.WriteFile(path, []byte("old"), 0o644)
	f, err := Create(path, true)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if got := readFile(t, path); got != "old" {
		t.Fatalf("old file changed before Commit: %q", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new" {
		t.Fatalf("content %q", got)
	}
}

func TestAbortRemovesTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dump.rdb")
	os.WriteFile(path, []byte("good"), 0o644)
	f, err := Create(path, true)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("half")
	if err := f.Abort(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "good" {
		t.Fatalf("aborted write changed the file to %q", got)
	}
	if es := entries(t, dir); len(es) != 1 {
		t.Fatalf("directory holds %v", es)
	}
	if err := f.Commit(); err == nil {
		t.Fatal("Commit after Abort succeeded")
	}
}

func TestBadPaths(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(dir, true); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("directory as path: %v", err)
	}
	if _, err := Create(filepath.Join(dir, "missing", "dump.rdb"), false); err == nil || !strings.Contains(err.Error(), "no such file or directory") {
		t.Fatalf("missing directory: %v", err)
	}
}

// createFiles starts files a, b and c in dir, each holding its name.
func createFiles(t *testing.T, dir string) []*File {
	t.Helper()
	var files []*File
	for _, name := range []string{"a", "b", "c"} {
		f, err := Create(filepath.Join(dir, name), false)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(name)
		files = append(files, f)
	}
	return files
}

func TestCommitAll(t *testing.T) {
	dir := t.TempDir()
	files := createFiles(t, dir)
	if err := CommitAll(files); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		if got := readFile(t, filepath.Join(dir, name)); got != name {
			t.Fatalf("%s holds %q", name, got)
		}
	}
	if es := entries(t, dir); len(es) != 3 {
		t.Fatalf("directory holds %v", es)
	}
	for _, f := range files {
		if err := f.Abort(); err != nil {
			t.Fatalf("Abort after CommitAll: %v", err)
		}
	}
}

// TestCommitAllFailureLeavesNoPart makes the third of three files fail to move into place:
// the two before it are removed again, and the file in its way is kept.
func TestCommitAllFailureLeavesNoPart(t *testing.T) {
	dir := t.TempDir()
	files := createFiles(t, dir)
	os.WriteFile(filepath.Join(dir, "c"), []byte("precious"), 0o644)
	err := CommitAll(files)
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "removed a, b again") {
		t.Fatalf("CommitAll = %v", err)
	}
	if es := entries(t, dir); len(es) != 1 || es[0] != "c" || readFile(t, filepath.Join(dir, "c")) != "precious" {
		t.Fatalf("directory holds %v", es)
	}
}
