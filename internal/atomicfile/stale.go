package atomicfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// tempPattern is the os.CreateTemp pattern of the temporary file for base: a hidden name
// that holds the writer's process ID, ".BASE.tmp-rdbgen-PID-RANDOM".
func tempPattern(base string) string {
	return "." + base + ".tmp-rdbgen-" + strconv.Itoa(os.Getpid()) + "-*"
}

// tempName matches the names tempPattern makes, and only those; its group is the PID.
var tempName = regexp.MustCompile(`^\..+\.tmp-rdbgen-([0-9]+)-[0-9]+$`)

// RemoveStale removes from dir the temporary files that runs killed before they could
// clean up (SIGKILL, a crash, a power loss) left behind, and returns their paths. It removes
// a file only when its name is one that Create makes, no process holds its lock, and the
// process named in it is gone; anything else is left alone. On systems without file locks
// it removes nothing. The error is the first that kept a file from being removed; the
// files returned were removed all the same.
func RemoveStale(dir string) ([]string, error) {
	return removeStale(dir, func(name string, pid int) bool { return !alive(pid) })
}

// removeStaleOf removes from dir the temporary files of base that no process holds locked,
// whatever process they name (see CreateShared).
func removeStaleOf(dir, base string) ([]string, error) {
	prefix := "." + base + ".tmp-rdbgen-"
	return removeStale(dir, func(name string, _ int) bool { return strings.HasPrefix(name, prefix) })
}

// removeStale removes from dir the temporary files, named as Create names them, that stale
// says are stale, given their names and the process named in them, and that no process
// holds locked.
func removeStale(dir string, stale func(name string, pid int) bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	var first error
	for _, e := range entries {
		m := tempName.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || !stale(e.Name(), pid) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		ok, err := removeUnlocked(path)
		if err != nil && first == nil {
			first = err
		}
		if ok {
			removed = append(removed, path)
		}
	}
	return removed, first
}
