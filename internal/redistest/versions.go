package redistest

import (
	"os"
	"path/filepath"
	"testing"
)

// VersionsDir holds hand-built servers of other versions, one directory each
// (redis-6.2.16/redis-server): for checks against them that CI, which has one server,
// cannot make.
const VersionsDir = "/opt/redis-versions"

// VersionServer returns the path of the redis-server of the hand-built server name
// ("redis-6.2.16", "valkey-8.0.1") in VersionsDir, and skips the test when it is absent,
// in CI too: CI has none of them.
func VersionServer(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(VersionsDir, name, "redis-server")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s is not built here: %v", name, err)
	}
	return path
}
