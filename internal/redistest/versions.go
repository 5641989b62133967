package redistest

import (
	"os"
	"path/filepath"
	"testing"
)

// VersionsDir holds servers built by hand for manual checks, one folder per release
// (redis-6.2.16/redis-server, valkey-8.0.1/redis-server…). CI has none of them.
const VersionsDir = "/opt/redis-versions"

// VersionServer returns the path of the redis-server of release name under VersionsDir
// ("redis-6.2.16"), and skips the test when it is absent, in CI too: CI has only Debian's
// redis-server (RedisServer), which the tests that must run there use.
func VersionServer(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(VersionsDir, name, "redis-server")
	if fi, err := os.Stat(path); err != nil || fi.Mode()&0o111 == 0 {
		t.Skipf("%s not built here (%s): a check outside CI", name, path)
	}
	return path
}
