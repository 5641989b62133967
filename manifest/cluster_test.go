package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/record"
)

func TestClusterShardRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shard-1.rdb.manifest.json")
	want := &Manifest{
		Format:  FormatVersion,
		DBs:     map[int]record.Counts{0: {Keys: 4}},
		Keys:    4,
		Dataset: &dataset.Config{Count: 10, KeyPrefix: "k"},
		Cluster: &Shard{Index: 1, Shards: 3, Slots: []cluster.Range{{First: 0, Last: 99}, {First: 5461, Last: 5461}},
			NodeID: strings.Repeat("a", 40), Addr: "127.0.0.1:7001"},
	}
	if err := Write(path, want); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"slots": [
      "0-99",
      "5461"
    ]`) {
		t.Fatalf("slot ranges not written as text:\n%s", b)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read back %+v\nwant %+v", got.Cluster, want.Cluster)
	}
	if !got.Cluster.Owns(50) || got.Cluster.Owns(100) || !got.Cluster.Owns(5461) {
		t.Fatal("Owns")
	}
}

func TestClusterShardErrors(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"bad range":    `{"format": 1, "cluster": {"shard": 0, "shards": 1, "slots": ["0-16384"]}}`,
		"no slots":     `{"format": 1, "cluster": {"shard": 0, "shards": 1, "slots": []}}`,
		"index beyond": `{"format": 1, "cluster": {"shard": 3, "shards": 3, "slots": ["0"]}}`,
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "read manifest") {
			t.Errorf("%s: got %v", name, err)
		}
	}
}
