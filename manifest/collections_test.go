package manifest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
)

// TestReadManifestWithoutType checks that manifests written before collections existed still
// read, as string datasets with the default thresholds.
func TestReadManifestWithoutType(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dump.rdb.manifest.json")
	old := `{"format": 1, "generator": "rdbgen 0.1.0", "target": "redis-5.0", "rdb_version": 9,
		"keys": 3, "dataset": {"count": 3, "key_prefix": "key", "key_start": 1, "value": "same", "seed": 1, "db": 0}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Dataset.Type.IsString() || m.Dataset.Members != (dataset.Range{}) || m.Thresholds != nil {
		t.Fatalf("old manifest read as %+v, thresholds %v", m.Dataset, m.Thresholds)
	}
}
