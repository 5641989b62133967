package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOIsWrittenNotReplaced writes into a FIFO, with and without overwrite: the data comes
// out of the FIFO, which is still a FIFO, and no temporary file is made.
func TestFIFOIsWrittenNotReplaced(t *testing.T) {
	for _, overwrite := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "f")
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		got := make(chan string, 1)
		go func() {
			r, err := os.Open(path)
			if err != nil {
				got <- err.Error()
				return
			}
			defer r.Close()
			b, _ := io.ReadAll(r)
			got <- string(b)
		}()
		f, err := Create(path, overwrite)
		if err != nil {
			t.Fatalf("overwrite %v: %v", overwrite, err)
		}
		f.WriteString("streamed")
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		if s := <-got; s != "streamed" {
			t.Fatalf("read %q from the FIFO", s)
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("overwrite %v: the FIFO became %v (%v)", overwrite, fi.Mode(), err)
		}
		if es := entries(t, dir); len(es) != 1 {
			t.Fatalf("directory holds %v", es)
		}
		if err := f.Abort(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCharDeviceIsWrittenNotReplaced writes into /dev/null with overwrite: it stays a device.
func TestCharDeviceIsWrittenNotReplaced(t *testing.T) {
	if !IsStream(os.DevNull) {
		t.Skipf("%s is not a character device here", os.DevNull)
	}
	f, err := Create(os.DevNull, true)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("gone")
	if err := f.Abort(); err != nil {
		t.Fatalf("Abort of a stream: %v", err)
	}
	f, err = Create(os.DevNull, true)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("gone")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is now %v (%v)", os.DevNull, fi.Mode(), err)
	}
}

func TestSocketIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	for _, overwrite := range []bool{false, true} {
		_, err := Create(path, overwrite)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "is a socket") {
			t.Fatalf("overwrite %v: Create = %v", overwrite, err)
		}
		if err := Check(path, overwrite); !errors.Is(err, ErrNotRegular) {
			t.Fatalf("overwrite %v: Check = %v", overwrite, err)
		}
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("the socket became %v (%v)", fi.Mode(), err)
	}
}

// TestFIFOAppearingMeanwhileIsKept replaces the path with a FIFO between Create and Commit:
// even with overwrite, the FIFO is not replaced.
func TestFIFOAppearingMeanwhileIsKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	f, err := Create(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := f.Commit(); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("Commit = %v", err)
	}
	if fi, _ := os.Lstat(path); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO became %v", fi.Mode())
	}
	if es := entries(t, dir); len(es) != 1 {
		t.Fatalf("directory holds %v", es)
	}
}

func TestEmptyPath(t *testing.T) {
	for _, err := range []error{Check("", true), func() error { _, err := Create("", true); return err }()} {
		if err == nil || err.Error() != "the output path is empty" {
			t.Fatalf("empty path: %v", err)
		}
	}
}

// TestHelperProcess is the writer that TestStaleTemporaryFiles kills: it starts a file in
// $ATOMICFILE_HELPER_DIR, says "ready" and waits.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv("ATOMICFILE_HELPER_DIR")
	if dir == "" {
		t.Skip("only run by TestStaleTemporaryFiles")
	}
	f, err := Create(filepath.Join(dir, "dump.rdb"), false)
	if err != nil {
		os.Stdout.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	f.WriteString("half a dump")
	os.Stdout.WriteString("ready\n")
	time.Sleep(time.Hour)
}

// TestStaleTemporaryFiles kills a writer with SIGKILL: while it runs its temporary file is
// kept; once it is gone, the next Create in the directory removes it and says so, and leaves
// files of other names alone.
func TestStaleTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	others := []string{".dump.rdb.tmp-123", ".dump.rdb.tmp-rdbgen-x-1", "dump.rdb.tmp-rdbgen-1-1", ".notes.tmp-rdbgen-1-1.txt"}
	for _, name := range others {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_HELPER_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		t.Fatalf("helper: %q", line)
	}
	var tmp string
	for _, name := range entries(t, dir) {
		if tempName.MatchString(name) {
			tmp = filepath.Join(dir, name)
		}
	}
	if tmp == "" {
		t.Fatalf("no temporary file among %v", entries(t, dir))
	}

	f, err := Create(filepath.Join(dir, "other.rdb"), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Removed()) != 0 {
		t.Fatalf("removed %v of a live run", f.Removed())
	}
	f.Abort()

	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	f, err = Create(filepath.Join(dir, "other.rdb"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if got := f.Removed(); len(got) != 1 || got[0] != tmp {
		t.Fatalf("Removed() = %v, want [%s]", got, tmp)
	}
	for _, name := range others {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestStaleLockedFileIsKept keeps a file whose name names a dead process but whose lock is
// held: a writer in another PID namespace, say.
func TestStaleLockedFileIsKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".dump.rdb.tmp-rdbgen-999999999-1")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := lock(f); err != nil {
		t.Fatal(err)
	}
	if removed, err := RemoveStale(dir); len(removed) != 0 || err != nil {
		t.Fatalf("RemoveStale = %v, %v", removed, err)
	}
	f.Close()
	if removed, err := RemoveStale(dir); len(removed) != 1 || err != nil {
		t.Fatalf("RemoveStale after unlock = %v, %v", removed, err)
	}
}

// TestCreateSharedRemovesItsOwnOnly: in a directory shared with other machines, a process's
// own file's temporary files are removed, even one that names a live process (pods have
// their own process IDs: each pod's rdbgen may be PID 1), unless locked; those of other
// files are left alone, even one that names a dead process.
func TestCreateSharedRemovesItsOwnOnly(t *testing.T) {
	dir := t.TempDir()
	live := strconv.Itoa(os.Getpid())
	own := []string{".shard-7.rdb.tmp-rdbgen-1-11", ".shard-7.rdb.tmp-rdbgen-" + live + "-12", ".shard-7.rdb.tmp-rdbgen-999999999-13"}
	others := []string{".shard-70.rdb.tmp-rdbgen-999999999-1", ".shard-6.rdb.tmp-rdbgen-999999999-2", ".shard-7.rdb.manifest.json.tmp-rdbgen-999999999-3", "shard-6.rdb"}
	for _, name := range append(slices.Clone(own), others...) {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	locked, err := os.Create(filepath.Join(dir, ".shard-7.rdb.tmp-rdbgen-1-14"))
	if err != nil {
		t.Fatal(err)
	}
	defer locked.Close()
	if err := lock(locked); err != nil {
		t.Fatal(err)
	}
	f, err := CreateShared(filepath.Join(dir, "shard-7.rdb"), false)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, name := range own {
		want = append(want, filepath.Join(dir, name))
	}
	if got := slices.Sorted(slices.Values(f.Removed())); !slices.Equal(got, want) {
		t.Fatalf("Removed() = %v, want %v", got, want)
	}
	f.Write([]byte("shard 7"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	got := entries(t, dir)
	wantLeft := slices.Sorted(slices.Values(append(slices.Clone(others), filepath.Base(locked.Name()), "shard-7.rdb")))
	if !slices.Equal(got, wantLeft) {
		t.Fatalf("left %v, want %v", got, wantLeft)
	}
}
