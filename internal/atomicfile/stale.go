package atomicfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
		if err != nil || alive(pid) {
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
