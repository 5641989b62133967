package loader

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/spec"
)

func TestTargetOptions(t *testing.T) {
	file := Target{Addr: DefaultAddr, Method: Pipeline}
	dataset := file
	dataset.Dataset = true
	with := func(base Target, f func(*Target)) Target { f(&base); return base }
	tests := []struct {
		name   string
		target Target
		want   DBs
		addr   string
		err    string
	}{
		{"file as it is", file, DBs{}, DefaultAddr, ""},
		{"dataset into db 0", dataset, DBs{To: 0, Move: true}, DefaultAddr, ""},
		{"dataset into --db", with(dataset, func(t *Target) { t.DB, t.DBSet = 4, true }), DBs{To: 4, Move: true}, DefaultAddr, ""},
		{"dataset into the url's db", with(dataset, func(t *Target) { t.URL = "redis://h:1/2" }), DBs{To: 2, Move: true}, "h:1", ""},
		{"dataset, url and --db agree", with(dataset, func(t *Target) { t.URL, t.DB, t.DBSet = "redis://h:1/2", 2, true }), DBs{To: 2, Move: true}, "h:1", ""},
		{"dataset, url and --db disagree", with(dataset, func(t *Target) { t.URL, t.DB, t.DBSet = "redis://h:1/2", 3, true }), DBs{}, "", "--db 3 disagrees with the database 2 of --url: give one"},
		{"dataset and --db-map", with(dataset, func(t *Target) { t.DBMap = "0=1" }), DBs{}, "", "--db-map goes with --spec or an input file"},
		{"file into --db", with(file, func(t *Target) { t.DB, t.DBSet = 5, true }), DBs{To: 5, Move: true}, DefaultAddr, ""},
		{"file into the url's db", with(file, func(t *Target) { t.URL = "redis://h:1/5" }), DBs{To: 5, Move: true}, "h:1", ""},
		{"file mapped", with(file, func(t *Target) { t.DBMap = "0=5,3=6" }), DBs{Map: map[int]int{0: 5, 3: 6}}, DefaultAddr, ""},
		{"file, --db out of range", with(file, func(t *Target) { t.DB, t.DBSet = -1, true }), DBs{}, "", "--db -1 out of range (0 to "},
		{"file, url and --db disagree", with(file, func(t *Target) { t.URL, t.DB, t.DBSet = "redis://h:1/2", 3, true }), DBs{}, "", "--db 3 disagrees with the database 2 of --url"},
		{"file, url's db and --db-map", with(file, func(t *Target) { t.URL, t.DBMap = "redis://h:1/2", "0=1" }), DBs{}, "", "--url's database and --db-map both say where the keys go"},
		{"file, --db and --db-map", with(file, func(t *Target) { t.DB, t.DBSet, t.DBMap = 1, true, "0=1" }), DBs{}, "", "--db and --db-map both say where the keys go: give one"},
		{"file, bad --db-map", with(file, func(t *Target) { t.DBMap = "0-1" }), DBs{}, "", `--db-map "0-1": "0-1" has no '='`},
		{"file into a cluster's db 3", with(file, func(t *Target) { t.Cluster, t.DB, t.DBSet = true, 3, true }), DBs{}, "", "database 3: a cluster has database 0 only"},
		{"file mapped into a cluster", with(file, func(t *Target) { t.Cluster, t.DBMap = true, "3=0" }), DBs{Map: map[int]int{3: 0}}, DefaultAddr, ""},
		{"--addr and --url", with(file, func(t *Target) { t.URL, t.AddrSet = "redis://h:1", true }), DBs{}, "", "--addr and --url both name the server: give one"},
		{"two passwords", with(file, func(t *Target) { t.URL, t.Password, t.PasswordSet = "redis://:a@h:1", "b", true }), DBs{}, "", "--password (or $REDISCLI_AUTH, or --password-file) and the password of --url: give one"},
		{"unix socket", with(file, func(t *Target) { t.URL = "unix:///tmp/r.sock" }), DBs{}, "", "--url /tmp/r.sock: unix sockets are not supported"},
		{"bad url", with(file, func(t *Target) { t.URL = "http://h:1" }), DBs{}, "", "--url: "},
		{"batch without pipeline", with(file, func(t *Target) { t.Method, t.Batch = Sequential, 10 }), DBs{}, "", "--batch goes with --method pipeline or auto, not sequential"},
		{"batch 1 with mass", with(file, func(t *Target) { t.Method, t.Batch = Mass, 1 }), DBs{}, "", "--batch goes with --method pipeline or auto, not mass"},
		{"replace without restore", with(file, func(t *Target) { t.Method, t.Replace = Mass, true }), DBs{}, "", "--replace goes with --method restore (mass replaces keys always)"},
		{"replace with restore", with(file, func(t *Target) { t.Method, t.Replace = Restore, true }), DBs{}, DefaultAddr, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, dbs, err := tt.target.Options()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if dbs.To != tt.want.To || dbs.Move != tt.want.Move || !maps.Equal(dbs.Map, tt.want.Map) || opts.Addr != tt.addr {
				t.Fatalf("dbs %+v, addr %q; want %+v, %q", dbs, opts.Addr, tt.want, tt.addr)
			}
			if opts.Method != tt.target.Method || opts.Batch != tt.target.Batch || opts.Replace != tt.target.Replace || opts.Cluster != tt.target.Cluster {
				t.Fatalf("options %+v do not carry the target's %+v", opts, tt.target)
			}
		})
	}
}

func TestMoveSpec(t *testing.T) {
	const text = "families:\n" +
		"  - {name: a, key: \"a:{id}\", type: string, db: 0, count: 1, value: {key: {}}}\n" +
		"  - {name: b, key: \"b:{id}\", type: string, db: 3, count: 1, value: {key: {}}}\n"
	tests := []struct {
		dbs    DBs
		moved  bool
		to     []int
		errSub string
	}{
		{DBs{}, false, []int{0, 3}, ""},
		{DBs{Map: map[int]int{0: 0, 3: 3}}, false, []int{0, 3}, ""},
		{DBs{Map: map[int]int{0: 5, 3: 6}}, true, []int{5, 6}, ""},
		{DBs{To: 5, Move: true}, false, nil, "--spec: the input holds databases 0 and 3, and --db 5 moves one"},
		{DBs{Map: map[int]int{0: 5}}, false, nil, "--spec: the input's database 3 has no place in --db-map 0=5"},
	}
	for _, tt := range tests {
		s, err := spec.Parse("s.yaml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		moved, err := tt.dbs.MoveSpec(s)
		if tt.errSub != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errSub) {
				t.Errorf("%+v: error %v, want %q", tt.dbs, err, tt.errSub)
			}
			continue
		}
		if err != nil || moved != tt.moved || s.Families[0].DB != tt.to[0] || s.Families[1].DB != tt.to[1] {
			t.Errorf("%+v: moved %v to %d,%d (%v); want %v to %v", tt.dbs, moved, s.Families[0].DB, s.Families[1].DB, err, tt.moved, tt.to)
		}
	}
}

func TestInterrupted(t *testing.T) {
	other := errors.New("connection refused")
	tests := []struct {
		err  error
		want string
	}{
		{&Error{Addr: "h:1", Confirmed: 5, Total: 9, Err: context.Canceled}, "interrupted: 5 of 9 keys confirmed by h:1"},
		{&Error{Addr: "h:1", Confirmed: 5, Err: fmt.Errorf("send: %w", context.Canceled)}, "interrupted: 5 keys confirmed by h:1"},
		{&Error{Addr: "h:1", Confirmed: 5, Err: other}, "load into h:1 stopped with 5 keys confirmed: connection refused"},
		{context.Canceled, "context canceled"}, // not a load's: the caller words it
	}
	for _, tt := range tests {
		if got := Interrupted(tt.err); got.Error() != tt.want {
			t.Errorf("%v: %q, want %q", tt.err, got, tt.want)
		}
	}
}
