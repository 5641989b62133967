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

// TestSharedBaseTime: shard i needs a base time given, as an absolute time.
func TestSharedBaseTime(t *testing.T) {
	tests := []struct {
		baseTime string
		set      bool
		err      string // empty: none
	}{
		{"", false, "shard 2 of a split written by separate processes needs --base-time (or $BT), the same in every process"},
		{"2026-11-29T10:00:00Z", true, ""},
		{"1764410400", true, ""},
		{" -48h ", true, "--base-time -48h counts from now, which differs from one process to the next: shard 2 of"},
	}
	for _, tt := range tests {
		err := SharedBaseTime(2, tt.baseTime, tt.set, "BT")
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)) {
			t.Errorf("%q (set %v): got %v, want %q", tt.baseTime, tt.set, err, tt.err)
		}
	}
}

// TestCheckShard: an index is 0 to Len()-1.
func TestCheckShard(t *testing.T) {
	l, err := Even(3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := l.CheckShard(i); err != nil {
			t.Errorf("shard %d: %v", i, err)
		}
	}
	for _, i := range []int{-1, 3} {
		if err := l.CheckShard(i); err == nil || !strings.Contains(err.Error(), "the split has 3 shards (0 to 2)") {
			t.Errorf("shard %d: %v", i, err)
		}
	}
}
