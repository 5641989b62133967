package cluster

import (
	"strings"
	"testing"
)

func TestShardIndex(t *testing.T) {
	three, five := 3, 5
	tests := []struct {
		name  string
		flag  *int
		split bool
		env   map[string]string
		want  int
		err   string
	}{
		{"none", nil, true, nil, -1, ""},
		{"flag", &three, true, nil, 3, ""},
		{"job index", nil, true, map[string]string{EnvJobIndex: "2"}, 2, ""},
		{"job index without a split is not read", nil, false, map[string]string{EnvJobIndex: "2"}, -1, ""},
		{"own variable without a split", nil, false, map[string]string{EnvShardIndex: "2"}, -1, "RDBGEN_SHARD_INDEX=2 is one shard of a split: give the split too, --split"},
		{"agree", &three, true, map[string]string{EnvJobIndex: "3", EnvShardIndex: " 3 "}, 3, ""},
		{"disagree", &five, true, map[string]string{EnvJobIndex: "3"}, -1, "--shard-index 5 and JOB_COMPLETION_INDEX=3 disagree"},
		{"not a number", nil, true, map[string]string{EnvShardIndex: "x"}, -1, `RDBGEN_SHARD_INDEX="x" is not a shard index`},
		{"empty is unset", nil, true, map[string]string{EnvShardIndex: ""}, -1, ""},
		{"negative", nil, true, map[string]string{EnvShardIndex: "-1"}, -1, "a shard index is 0 or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			got, err := ShardIndex(tt.flag, tt.split, "--split", getenv)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %d, %v; want an error containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}
