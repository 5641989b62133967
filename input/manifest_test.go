package input

import (
	"testing"

	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

func TestSectionManifests(t *testing.T) {
	dump := &Input{Kind: Live, Arg: "redis://h:6379", Read: decoder.Stats{Duplicates: 2}}
	got := dump.DumpManifest(10, 1, record.DupFirst)
	want := manifest.Import{Inputs: []string{"redis://h:6379"}, Format: "rdb", Records: 12, Skipped: 1, Duplicates: 2, OnDup: "first"}
	if !same(*got, want) {
		t.Errorf("dump: %+v, want %+v", *got, want)
	}
	csv := &Input{Kind: CSV, Arg: "a.csv", Import: &importer.Source{Stats: importer.Stats{Records: 7, Skipped: 3, Duplicates: 1}}}
	got = csv.ImportManifest(record.DupLast)
	want = manifest.Import{Inputs: []string{"a.csv"}, Format: "csv", Records: 7, Skipped: 3, Duplicates: 1, OnDup: "last"}
	if !same(*got, want) {
		t.Errorf("csv: %+v, want %+v", *got, want)
	}
}

func same(a, b manifest.Import) bool {
	return len(a.Inputs) == 1 && a.Inputs[0] == b.Inputs[0] && a.Format == b.Format && a.Records == b.Records &&
		a.Skipped == b.Skipped && a.Duplicates == b.Duplicates && a.OnDup == b.OnDup
}
