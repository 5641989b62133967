package verify_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/verify"
)

// writeRecords writes recs (database by database, in order) with the encoder, which trusts
// its caller about repeats, and returns the file's path.
func writeRecords(t *testing.T, recs []record.Record) string {
	t.Helper()
	return servertest.WriteRecords(t, recs, encoder.Options{Target: "redis-7.2"})
}

func strs(prefix string, n int) []record.Record {
	rs := make([]record.Record, n)
	for i := range rs {
		rs[i] = record.Record{Key: []byte(fmt.Sprint(prefix, i)), Type: record.String, Value: []byte("v")}
	}
	return rs
}

func members(names ...string) []record.Member {
	ms := make([]record.Member, len(names))
	for i, n := range names {
		ms[i] = record.Member{Name: []byte(n), Value: []byte("v"), Score: float64(i)}
	}
	return ms
}

func TestFileOfflineDuplicates(t *testing.T) {
	big := make([]string, 2000)
	for i := range big {
		big[i] = fmt.Sprint("m", i)
	}
	bigDup := append(append([]string{}, big...), "m1234")
	cases := []struct {
		name string
		recs []record.Record
		want string // "" passes
	}{
		{"distinct keys", strs("k", 5000), ""},
		{"same key in two dbs", []record.Record{{Key: []byte("a"), Type: record.String}, {DB: 1, Key: []byte("a"), Type: record.String}}, ""},
		{"repeated key", append(strs("k", 3000), record.Record{Key: []byte("k17"), Type: record.String}),
			`duplicate key: "k17" is in db 0 twice`},
		{"repeated key, other type", append(strs("k", 10), record.Record{Key: []byte("k0"), Type: record.Set, Members: members("x")}),
			`duplicate key: "k0" is in db 0 twice`},
		{"repeated set member", []record.Record{{Key: []byte("s"), Type: record.Set, Members: members("a", "b", "a")}},
			`duplicate member: "a" is in key "s" (db 0) twice`},
		{"repeated member of a large set", []record.Record{{Key: []byte("s"), Type: record.Set, Members: members(bigDup...)}},
			`duplicate member: "m1234" is in key "s" (db 0) twice`},
		{"repeated hash field", []record.Record{{Key: []byte("h"), Type: record.Hash, Members: members("f", "g", "f")}},
			`duplicate member: "f" is in key "h" (db 0) twice`},
		{"repeated zset member", []record.Record{{DB: 2, Key: []byte("z"), Type: record.ZSet, Members: members("x", "y", "x")}},
			`duplicate member: "x" is in key "z" (db 2) twice`},
		{"list elements may repeat", []record.Record{{Key: []byte("l"), Type: record.List, Members: members("x", "x")}}, ""},
		{"large distinct set", []record.Record{{Key: []byte("s"), Type: record.Set, Members: members(big...)}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeRecords(t, tc.recs)
			rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
			if tc.want == "" {
				wantPass(t, rep, err)
				return
			}
			wantFail(t, rep, err, verify.StageFile, tc.want)
			if rep.MismatchCount != 1 {
				t.Errorf("%d mismatches: %v", rep.MismatchCount, rep.Mismatches)
			}
		})
	}
}

func TestFileOfflineEncodings(t *testing.T) {
	path := writeRecords(t, []record.Record{
		{Key: []byte("s"), Type: record.String, Value: []byte("v")},
		{Key: []byte("h"), Type: record.Hash, Members: members("a", "b")},
		{Key: []byte("l"), Type: record.List, Members: members("a", "b")},
		{Key: []byte("i"), Type: record.Set, Members: members("1", "2")},
		{Key: []byte("t"), Type: record.Set, Members: members("x", "y")},
	})
	rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
	wantPass(t, rep, err)
	got := fmt.Sprint(rep.File.Encodings)
	want := "map[hash-listpack:1 list-quicklist2:1 set-intset:1 set-listpack:1 string:1]"
	if got != want {
		t.Fatalf("encodings %s, want %s", got, want)
	}
	if !strings.Contains(fmt.Sprint(rep.File.DBs[0].Types), "set:2") {
		t.Fatalf("types %v", rep.File.DBs[0].Types)
	}
}
