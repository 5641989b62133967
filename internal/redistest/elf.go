package redistest

import (
	"debug/elf"
	"os/exec"
	"strings"
	"testing"
)

// Interpreter returns the dynamic loader the ELF executable at path names (PT_INTERP), ""
// for a static one.
func Interpreter(t testing.TB, path string) string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			if _, err := p.ReadAt(b, 0); err != nil {
				t.Fatal(err)
			}
			return strings.TrimRight(string(b), "\x00")
		}
	}
	return ""
}

// Libraries returns the files ldd lists for the dynamically linked executable at path,
// its loader included, as this machine's loader finds them (ldd runs it), in ldd's order:
// what scripts/redis-image.sh copies into the test image.
func Libraries(t testing.TB, path string) []string {
	t.Helper()
	out, err := exec.Command("ldd", path).Output()
	if err != nil {
		t.Fatalf("ldd %s: %v", path, err)
	}
	var libs []string
	for _, line := range strings.Split(string(out), "\n") {
		switch f := strings.Fields(line); {
		case len(f) >= 3 && f[1] == "=>" && strings.HasPrefix(f[2], "/"):
			libs = append(libs, f[2])
		case len(f) >= 1 && strings.HasPrefix(f[0], "/"):
			libs = append(libs, f[0])
		}
	}
	return libs
}
