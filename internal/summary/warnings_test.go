package summary

import (
	"slices"
	"testing"

	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/record"
)

// TestWarnings: the stale temporary files removed, then a db past the default databases of
// one RDB file; a split and RESP commands get no databases warning.
func TestWarnings(t *testing.T) {
	dbs := map[int]record.Counts{0: {Keys: 1}, 20: {Keys: 2}}
	for _, tt := range []struct {
		name string
		res  output.Result
		want []string
	}{
		{"clean", output.Result{Path: "d.rdb", RDBVersion: 11, DBs: map[int]record.Counts{15: {Keys: 1}}}, nil},
		{"stale and db 20", output.Result{Path: "d.rdb", RDBVersion: 11, DBs: dbs, Stale: []string{".d.rdb.tmp1"}}, []string{
			"removed .d.rdb.tmp1, the temporary file of an rdbgen run that was killed",
			"warning: d.rdb holds db 20: a server loads it only when configured with databases 21 or more (the default is 16)"}},
		{"resp", output.Result{Path: "-", DBs: dbs}, nil},
		{"split", output.Result{Path: "dir", RDBVersion: 11, DBs: dbs, Shards: []output.ShardResult{{}}}, nil},
	} {
		if got := Warnings(&tt.res); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
