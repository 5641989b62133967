package summary

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/resp"
)

// TestWriteText pins the one-line summaries of an RDB file and of RESP commands.
func TestWriteText(t *testing.T) {
	cmds := uint64(12)
	tests := []struct {
		name  string
		sum   Write
		extra string
		want  string
	}{
		{"file", Write{Output: "dump.rdb", Keys: 10, Expires: 2, Bytes: 2048, Seconds: 0.5, KeysPerSecond: 20, RDBVersion: 11, Target: "redis-7.2"}, "",
			"wrote 10 keys (2 with TTL) to dump.rdb: 2.0 KiB in 0.50s, 20 keys/s (RDB 11, redis-7.2)\n"},
		{"file with members", Write{Output: "d.rdb", Keys: 1, Members: 30, Bytes: 10, Seconds: 2, KeysPerSecond: 0.5, RDBVersion: 9, Target: "redis-5.0"}, "; x",
			"wrote 1 keys (0 with TTL, 30 members at 15/s) to d.rdb: 10 B in 2.00s, 0 keys/s (RDB 9, redis-5.0); x\n"},
		{"resp", Write{Output: "-", Format: "resp", Commands: &cmds, Keys: 3, Target: "redis-7.0", Streams: resp.StreamCounts{Restored: 1}}, "",
			"wrote 3 keys (0 with TTL) as 12 commands to -: 0 B in 0.00s, 0 keys/s (RESP for redis-7.0)\n" +
				"streams: 1 streams sent as RESTORE, since commands cannot make their pending entries whose entries were deleted or their consumers without pending entries\n"},
	}
	for _, tt := range tests {
		if got := tt.sum.Text(tt.extra); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestCountsInJSON checks that the counts of an import and its libraries sit at the top
// level of a summary's JSON, and that zero counts are left out.
func TestCountsInJSON(t *testing.T) {
	sum := Write{Output: "o", ImportCounts: ImportCounts{Records: 5, FunctionCounts: FunctionCounts{Functions: 2}}}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"records":5`, `"functions":2`} {
		if !strings.Contains(s, want) {
			t.Errorf("%s lacks %s", s, want)
		}
	}
	for _, absent := range []string{"skipped", "functions_dropped", "streams", "shards"} {
		if strings.Contains(s, `"`+absent+`"`) {
			t.Errorf("%s has %s", s, absent)
		}
	}
}

func TestFunctionSuffix(t *testing.T) {
	tests := []struct {
		f    FunctionCounts
		want string
	}{
		{FunctionCounts{}, ""},
		{FunctionCounts{Functions: 1}, "; with 1 function library"},
		{FunctionCounts{Functions: 2, FunctionsDropped: 1, ModuleAuxDropped: 3},
			"; with 2 function libraries; left out 1 function library (--drop-functions); left out 3 module AUX records (--drop-module-aux)"},
	}
	for _, tt := range tests {
		if got := tt.f.Suffix("with"); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.f, got, tt.want)
		}
	}
}

func TestLoadText(t *testing.T) {
	sum := Load{Addr: "h:1", Method: "pipeline", Workers: 1, Batch: 1000, Keys: 4, Expires: 1, Expired: 2, Seconds: 1, KeysPerSecond: 4}
	want := "loaded 4 keys (1 with TTL) and 2 whose expiry had passed (the server keeps none of them) into h:1 db 0 by pipeline (1 worker, batch 1000): 1.00s, 4 keys/s\n"
	if got := sum.Text("h:1 db 0"); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	auto := Load{Addr: "h:1", Method: "auto", Workers: 1, Batch: 1000, Keys: 9, Expires: 2, Seconds: 1, KeysPerSecond: 9,
		Auto: &loader.AutoCounts{MSet: 5, MSetCommands: 1, Set: 1, Restore: 2, Commands: 1, Refused: []string{"h:1 refused MSET (NOPERM): strings went as SET"}}}
	want = "loaded 9 keys (2 with TTL) into h:1 db 0 by auto (1 worker, MSET of 1000 keys): 1.00s, 9 keys/s\n" +
		"sent 5 strings in 1 MSET commands, 1 as SET, 2 keys as RESTORE, 1 as commands\n" +
		"h:1 refused MSET (NOPERM): strings went as SET\n"
	if got := auto.Text("h:1 db 0"); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
