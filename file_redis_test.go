package rdbgen_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

// multiDB is a record.Source of records in several databases, declaring no counts, as an
// import does.
type multiDB map[int]records

func (m multiDB) WriteTo(ctx context.Context, sink record.Sink) error {
	for _, db := range slices.Sorted(maps.Keys(m)) {
		if err := sink.BeginDB(db, record.Counts{}); err != nil {
			return err
		}
		for i := range m[db] {
			if err := m[db][i].WriteTo(sink); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}

// TestWriteFileInRedis writes records of three databases with WriteFile and checks that the
// manifest's counts per database are what a real redis-server loads (INFO keyspace).
func TestWriteFileInRedis(t *testing.T) {
	redistest.RedisServer(t)
	const later = 4102444800000 // 2100
	src := multiDB{
		0:  {{Key: []byte("a"), Value: []byte("1")}, {Key: []byte("b"), Value: []byte("2"), ExpireAtMS: later}},
		3:  {{Key: []byte("h"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}, ExpireAtMS: later}},
		15: {{Key: []byte("l"), Type: record.List, Members: []record.Member{{Name: []byte("x")}, {Name: []byte("y")}}}},
		7:  {}, // opened, empty: no section in the manifest
	}
	path := filepath.Join(t.TempDir(), "dump.rdb")
	res, err := rdbgen.WriteFile(context.Background(), path, src, rdbgen.FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Read(res.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, db := range []int{0, 3, 15} {
		n := m.DBs[db]
		want = append(want, fmt.Sprintf("db%d:keys=%d,expires=%d,", db, n.Keys, n.Expires))
	}
	if len(m.DBs) != 3 || m.Keys != 4 || m.Expires != 2 {
		t.Fatalf("manifest counts %v, %d keys, %d expires", m.DBs, m.Keys, m.Expires)
	}
	inst := servertest.Start(t, path)
	info, err := inst.Client().Info(context.Background(), "keyspace").Result()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for line := range strings.Lines(info) {
		if strings.HasPrefix(line, "db") {
			keys, _, _ := strings.Cut(line, "avg_ttl")
			got = append(got, keys)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("the server holds %q, the manifest says %q", got, want)
	}
}
