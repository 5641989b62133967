package live

import (
	"slices"
	"testing"
)

// TestKeyspace parses INFO server and INFO keyspace as servers of each version answer them,
// one section at a time and joined as info joins them.
func TestKeyspace(t *testing.T) {
	tests := []struct {
		name  string
		info  string
		dbs   []int
		major int
	}{
		{"redis 5.0", "# Server\r\nredis_version:5.0.14\r\nredis_git_sha1:00000000\r\n\n# Keyspace\r\ndb0:keys=7,expires=1,avg_ttl=0\r\ndb2:keys=1,expires=0,avg_ttl=0\r\n\n", []int{0, 2}, 5},
		{"redis 6.2, no keys", "# Server\r\nredis_version:6.2.16\r\n\n# Keyspace\r\n\n", nil, 6},
		{"valkey 8.0, databases out of order", "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\n\n# Keyspace\r\ndb15:keys=1,expires=0,avg_ttl=0\r\ndb3:keys=2,expires=0,avg_ttl=0\r\n", []int{3, 15}, 7},
		{"no version", "# Keyspace\r\ndb0:keys=1,expires=0\r\n", []int{0}, 0},
		{"junk lines", "dbx:keys=1\r\ndb-1x:keys=2\r\nkeys=3\r\n", nil, 0},
	}
	for _, tt := range tests {
		dbs, major := keyspace(tt.info)
		if !slices.Equal(dbs, tt.dbs) || major != tt.major {
			t.Errorf("%s: %v, major %d; want %v, %d", tt.name, dbs, major, tt.dbs, tt.major)
		}
	}
}
