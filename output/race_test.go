package output

import (
	"bytes"
	"fmt"
	"github.com/rdbgen/rdbgen/manifest"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// raceWriterEnv makes the test binary a writer of TestTwoRunsOneOutput: it writes the file
// at the path it names, of the size in raceSizeEnv, and its manifest, then exits.
const (
	raceWriterEnv = "RDBGEN_TEST_RACE_WRITER"
	raceSizeEnv   = "RDBGEN_TEST_RACE_SIZE"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(raceWriterEnv); path != "" {
		size, _ := strconv.Atoi(os.Getenv(raceSizeEnv))
		if err := writePair(path, size); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// writePair writes size bytes that name this process at path, with a manifest whose checksum
// is their FNV-64a, as rdbgen writes an output with --force.
func writePair(path string, size int) error {
	f, err := createFile(path, manifest.PathFor(path), true)
	if err != nil {
		return err
	}
	defer f.Abort()
	data := bytes.Repeat(fmt.Appendf(nil, "pid %d ", os.Getpid()), size/5+1)[:size]
	if _, err := f.Write(data); err != nil {
		return err
	}
	h := fnv.New64a()
	h.Write(data)
	return f.Commit(&manifest.Manifest{Format: manifest.FormatVersion, Bytes: int64(size), Checksum: fmt.Sprintf("%016x", h.Sum64())})
}

// TestTwoRunsOneOutput: two processes writing the same output and manifest at once, many
// times: the pair left is always one process's file and that same process's manifest
// (issue 22, item 11).
func TestTwoRunsOneOutput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "same.rdb")
	const rounds = 40
	for round := range rounds {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			// Sizes that differ in each round, so that which run finished last varies.
			cmd.Env = append(os.Environ(), raceWriterEnv+"="+path, fmt.Sprintf("%s=%d", raceSizeEnv, 200_000+(round*7919+i*104729)%300_000))
			wg.Go(func() {
				if out, err := cmd.CombinedOutput(); err != nil {
					errs[i] = fmt.Errorf("%v: %s", err, out)
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Read(manifest.PathFor(path))
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		h.Write(data)
		if m.Bytes != int64(len(data)) || m.Checksum != fmt.Sprintf("%016x", h.Sum64()) {
			t.Fatalf("round %d: the file (%d bytes, %.12q) and the manifest (%d bytes) come from different runs", round, len(data), data, m.Bytes)
		}
	}
	if es := names(t, dir); len(es) != 2 {
		t.Fatalf("left %v", es)
	}
}
