package bench_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/bench"
)

// TestRunMarksFailedRows makes rows fail for real: a row that could not load
// every key, or whose DBSIZE is wrong, is marked failed, with no figures.
func TestRunMarksFailedRows(t *testing.T) {
	tests := []struct {
		name string
		d    dataset.Config
		args []string // server arguments
		// wantErr is in the error of each failed row; snapshotOK tells
		// whether the snapshot rows pass.
		wantErr    string
		snapshotOK bool
	}{
		{
			// An online load hits maxmemory; Redis loads a file whatever its size.
			name:       "out of memory",
			d:          dataset.Config{Count: 20000, KeyPrefix: "k", Value: dataset.ValueRandom, ValueSize: 200, Seed: 1},
			args:       []string{"--maxmemory", "3mb", "--maxmemory-policy", "noeviction"},
			wantErr:    "OOM command not allowed",
			snapshotOK: true,
		},
		{
			// The server evicts keys to stay under maxmemory: every SET is
			// answered OK, and only DBSIZE tells that keys are missing.
			name:    "keys evicted",
			d:       dataset.Config{Count: 20000, KeyPrefix: "k", Value: dataset.ValueRandom, ValueSize: 200, Seed: 1},
			args:    []string{"--maxmemory", "3mb", "--maxmemory-policy", "allkeys-random"},
			wantErr: ", want 20000",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := bench.Options{Server: processServers(t), Workers: []int{2}}
			opts.Server.Args = tt.args
			r, err := bench.Run(t.Context(), &tt.d, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range r.Rows {
				snapshot := strings.HasPrefix(row.Method, bench.Snapshot)
				if snapshot && tt.snapshotOK {
					if row.Failed() || row.VsSnapshot <= 0 {
						t.Errorf("row %+v", row)
					}
					continue
				}
				if !row.Failed() || !strings.Contains(row.Error, tt.wantErr) || row.KeysPerSecond != 0 || row.VsSnapshot != 0 {
					t.Errorf("row %+v: want failed with %q", row, tt.wantErr)
				}
			}
			var table bytes.Buffer
			if err := bench.WriteTable(&table, r); err != nil {
				t.Fatal(err)
			}
			t.Logf("\n%s", table.String())
			if !strings.Contains(table.String(), "| mass | 1 | "+itoa(tt.d.Count)+" | FAILED | - | ") {
				t.Fatalf("table:\n%s", table.String())
			}
			// A chart of failed rows is still drawn.
			if err := bench.WriteChart(new(bytes.Buffer), r); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestReportFailed(t *testing.T) {
	tests := []struct {
		errs []string
		want int
	}{
		{nil, 0},
		{[]string{""}, 0},
		{[]string{"x", "", "y"}, 2},
	}
	for _, tt := range tests {
		r := &bench.Report{}
		for _, e := range tt.errs {
			r.Rows = append(r.Rows, bench.Row{Error: e})
		}
		if got := r.Failed(); got != tt.want {
			t.Errorf("%q: %d failed, want %d", tt.errs, got, tt.want)
		}
	}
}
