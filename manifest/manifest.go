// Package manifest is the sidecar that rdbgen writes next to each file
// (dump.rdb.manifest.json), written and read back: every parameter needed to recompute the
// dataset and what the file holds, so that a verifier can check a file or a live server
// against it; and the manifests of a directory of shard files, read as one set
// (ReadClusterSet). Package output puts the files in place with their manifests.
package manifest

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// Suffix is appended to a file's path to name its manifest.
const Suffix = ".manifest.json"

// FormatVersion is the version of the manifest layout written by this package.
const FormatVersion = 1

// A Manifest describes one RDB file written by rdbgen.
type Manifest struct {
	Format     int       `json:"format"`    // FormatVersion
	Generator  string    `json:"generator"` // "rdbgen <version>"
	CreatedAt  time.Time `json:"created_at"`
	Target     string    `json:"target"`
	RDBVersion int       `json:"rdb_version"`
	Compressed bool      `json:"compressed"`
	// Checksum is the CRC-64 trailer as 16 hex digits; all zeros when it was disabled.
	Checksum string `json:"checksum"`
	Bytes    int64  `json:"bytes"`
	// DBs holds the counts per database number.
	DBs     map[int]record.Counts `json:"dbs"`
	Keys    uint64                `json:"keys"`
	Expires uint64                `json:"expires"`
	Dataset *dataset.Config       `json:"dataset,omitempty"`
	// Spec is the spec file the dataset was generated from, when it was.
	Spec *SpecFile `json:"spec,omitempty"`
	// Import describes the input of an imported file.
	Import *Import `json:"import,omitempty"`
	// Rewrite describes the anonymising rules the records went through on the way
	// (rewrite.Rules.Describe: the rules file, its hash, the seed and each rule), if any.
	Rewrite any `json:"rewrite,omitempty"`
	// Rebase is the move of every expiry the records went through on the way (rebase.Shift:
	// from the input's creation time, to the new time, and the shift in ms), if any.
	Rebase any `json:"rebase,omitempty"`
	// Thresholds are the encoding limits the file was written with (absent before
	// collections: the defaults).
	Thresholds *rdb.Thresholds `json:"thresholds,omitempty"`
	// Cluster says which shard of a cluster dataset the file is; nil for a file that holds
	// the whole dataset.
	Cluster *Shard `json:"cluster,omitempty"`
}

// Shard describes one file of a cluster dataset: it holds the records of Dataset whose keys
// hash to the slots it owns, and its Keys and Expires count those alone.
type Shard struct {
	Index  int             `json:"shard"`  // the file is cluster.ShardFile(Index)
	Shards int             `json:"shards"` // files in the dataset
	Slots  []cluster.Range `json:"slots"`  // the slots the file's primary owns
	// NodeID and Addr name the primary in the layout the split followed (--slots-from).
	NodeID string `json:"node_id,omitempty"`
	Addr   string `json:"addr,omitempty"`
}

// Owns tells whether the shard owns slot.
func (s *Shard) Owns(slot int) bool {
	return cluster.Shard{Ranges: s.Slots}.Owns(slot)
}

// SpecFile is a spec file and the parameters it was generated with: with them, spec.Parse and
// Spec.SetParams recompute every record of the file.
type SpecFile struct {
	File string `json:"file"` // the path it was read from, for people
	YAML string `json:"yaml"` // its text
	spec.Params
}

// Import describes what an imported file was built from.
type Import struct {
	Inputs     []string `json:"inputs"`
	Format     string   `json:"format"`               // json or csv
	Records    uint64   `json:"records"`              // records read, skipped ones included
	Skipped    uint64   `json:"skipped,omitempty"`    // invalid records skipped
	Duplicates uint64   `json:"duplicates,omitempty"` // records dropped as duplicates
	OnDup      string   `json:"on_duplicate"`         // error, first or last
}

// PathFor returns the manifest path for an RDB file path.
func PathFor(rdbPath string) string { return rdbPath + Suffix }

// FormatChecksum renders a checksum the way manifests hold it.
func FormatChecksum(crc uint64) string { return fmt.Sprintf("%016x", crc) }

// Write stores m at path atomically, replacing an existing manifest.
func Write(path string, m *Manifest) error {
	f, err := create(path, m)
	if err != nil {
		return err
	}
	defer f.Abort()
	return f.Commit()
}

// create writes m into the temporary file of a manifest at path, which Commit puts in place.
func create(path string, m *Manifest) (*atomicfile.File, error) {
	data, err := Marshal(m)
	if err != nil {
		return nil, err
	}
	f, err := atomicfile.Create(path, true)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return f, nil
}

// Marshal returns m as it is stored: indented JSON and a newline.
func Marshal(m *Manifest) ([]byte, error) {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return append(data, '\n'), nil
}

// Read loads the manifest at path.
func Read(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	m := new(Manifest)
	if err := json.Unmarshal(data, m); err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", path, err)
	}
	if m.Format != FormatVersion {
		return nil, fmt.Errorf("read manifest %s: format %d, want %d", path, m.Format, FormatVersion)
	}
	if m.Dataset != nil {
		if err := m.Dataset.Validate(); err != nil {
			return nil, fmt.Errorf("read manifest %s: %w", path, err)
		}
	}
	if s := m.Cluster; s != nil && (s.Index < 0 || s.Index >= s.Shards || len(s.Slots) == 0) {
		return nil, fmt.Errorf("read manifest %s: cluster shard %d of %d with %d slot ranges", path, s.Index, s.Shards, len(s.Slots))
	}
	return m, nil
}
