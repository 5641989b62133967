package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files in ../testdata/layouts (shared with cmd/rdbgen's tests) were printed by redis-cli 7.0.15 for two clusters: "replicas",
// made by redis-cli --cluster create with three primaries and a replica each, and "uneven",
// three primaries given uneven ranges by hand, with slot 1500 being migrated.
var layoutFiles = map[string][]Shard{
	"replicas": {
		{Ranges: []Range{{0, 5460}}, NodeID: "dc85d2854a0926c71c29ae3aff0aa90b4fce16d6", Addr: "127.0.0.1:30001"},
		{Ranges: []Range{{5461, 10922}}, NodeID: "83c08d631f4d1a8024988e36560f580c209d7c13", Addr: "127.0.0.1:30002"},
		{Ranges: []Range{{10923, 16383}}, NodeID: "d55f9ba4e8f50852a05de72e0a3715afcd454d0f", Addr: "127.0.0.1:30003"},
	},
	"uneven": {
		{Ranges: []Range{{0, 999}, {10000, 16383}}, NodeID: "b8a3c761ed50eea0706ed0df3387ea50b73b1fe0", Addr: "127.0.0.1:30011"},
		{Ranges: []Range{{1000, 1998}}, NodeID: "b059696fa94825900fa1845c9924ce63fca96489", Addr: "127.0.0.1:30012"},
		{Ranges: []Range{{1999, 9999}}, NodeID: "283fee1c3c6094d7787358137b904ae099352e21", Addr: "127.0.0.1:30013"},
	},
}

func TestParseLayoutFiles(t *testing.T) {
	files, err := filepath.Glob("../testdata/layouts/*")
	if err != nil || len(files) < 14 {
		t.Fatalf("../testdata/layouts holds %d files (%v)", len(files), err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			cluster, _, _ := strings.Cut(filepath.Base(path), ".")
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			l, err := ParseLayout(f)
			if err != nil {
				t.Fatal(err)
			}
			checkShards(t, l, layoutFiles[cluster])
		})
	}
}

func checkShards(t *testing.T, l *Layout, want []Shard) {
	t.Helper()
	got := l.Shards()
	if len(got) != len(want) {
		t.Fatalf("%d shards, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if g, w := fmt.Sprintf("%+v", got[i]), fmt.Sprintf("%+v", want[i]); g != w {
			t.Errorf("shard %d = %s, want %s", i, g, w)
		}
	}
}

func TestParseLayoutInline(t *testing.T) {
	id := func(c byte) string { return strings.Repeat(string(c), 40) }
	tests := []struct {
		name string
		in   string
		want []Shard
	}{
		{
			// Redis 7.2 writes a hostname and auxiliary fields after the bus port.
			"nodes.conf of redis 7.2",
			id('a') + " 10.0.0.1:6379@16379,node-a,tls-port=0,shard-id=" + id('9') + " myself,master - 0 0 1 connected 0-8191\n" +
				id('b') + " 10.0.0.2:6379@16379,,tls-port=0,shard-id=" + id('8') + " master - 0 1700000000000 2 connected 8192-16383\n" +
				"vars currentEpoch 2 lastVoteEpoch 0\n",
			[]Shard{
				{Ranges: []Range{{0, 8191}}, NodeID: id('a'), Addr: "10.0.0.1:6379"},
				{Ranges: []Range{{8192, 16383}}, NodeID: id('b'), Addr: "10.0.0.2:6379"},
			},
		},
		{
			"failed primary, replica, handshake node, importing slot, CRLF",
			id('c') + " 127.0.0.1:7001@17001 master,fail - 1 2 3 disconnected 5-16383\r\n" +
				id('d') + " 127.0.0.1:7002@17002 slave " + id('c') + " 0 0 3 connected\r\n" +
				id('e') + " :0@0 handshake,noaddr - 0 0 0 disconnected\r\n" +
				"\r\n" +
				id('F') + " 127.0.0.1:7000@17000 myself,master - 0 0 4 connected 0 1-4 [5-<-" + id('c') + "]\r\n",
			[]Shard{
				{Ranges: []Range{{0, 4}}, NodeID: id('F'), Addr: "127.0.0.1:7000"},
				{Ranges: []Range{{5, 16383}}, NodeID: id('c'), Addr: "127.0.0.1:7001"},
			},
		},
		{
			"primary without slots is left out",
			id('a') + " 127.0.0.1:7000@17000 master - 0 0 1 connected 0-16383\n" +
				id('b') + " 127.0.0.1:7001@17001 master - 0 0 2 connected\n",
			[]Shard{{Ranges: []Range{{0, 16383}}, NodeID: id('a'), Addr: "127.0.0.1:7000"}},
		},
		{
			"raw shards with hostname, an empty shard and no primary",
			"slots\n0\n100\n\nnodes\nid\n" + id('a') + "\nport\n7000\nip\n10.0.0.1\nendpoint\n10.0.0.1\nhostname\n\nrole\nmaster\n" +
				"slots\n\nnodes\nid\n" + id('x') + "\nport\n7009\nrole\nmaster\n" +
				"slots\n101\n16383\nnodes\nid\n" + id('b') + "\nport\n0\ntls-port\n7443\nendpoint\nnode-b\nrole\nreplica\n",
			[]Shard{
				{Ranges: []Range{{0, 100}}, NodeID: id('a'), Addr: "10.0.0.1:7000"},
				{Ranges: []Range{{101, 16383}}},
			},
		},
		{
			"tty shards with an empty array and quoted strings",
			"1) 1) \"slots\"\n   2) 1) (integer) 0\n      2) (integer) 16383\n   3) \"nodes\"\n" +
				"   4) 1)  1) \"id\"\n          2) \"" + id('a') + "\"\n          3) \"port\"\n          4) (integer) 7000\n" +
				"          5) \"ip\"\n          6) \"::1\"\n          7) \"hostname\"\n          8) \"a\\\"b\\x41\\n\"\n" +
				"          9) \"role\"\n         10) \"primary\"\n" +
				"2) 1) \"slots\"\n   2) (empty array)\n   3) \"nodes\"\n   4) 1) 1) \"id\"\n         2) \"" + id('b') + "\"\n",
			[]Shard{{Ranges: []Range{{0, 16383}}, NodeID: id('a'), Addr: "[::1]:7000"}},
		},
		{
			"json array of arrays",
			`[["slots",[0,16383],"nodes",[["id","` + id('a') + `","port",7000,"ip","127.0.0.1","role","master","hostname",null]]]]`,
			[]Shard{{Ranges: []Range{{0, 16383}}, NodeID: id('a'), Addr: "127.0.0.1:7000"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := ParseLayout(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			checkShards(t, l, tt.want)
		})
	}
}

func TestParseLayoutErrors(t *testing.T) {
	id := strings.Repeat("a", 40)
	id2 := strings.Repeat("b", 40)
	line := func(id, flags, slots string) string {
		return id + " 127.0.0.1:7000@17000 " + flags + " - 0 0 1 connected " + slots + "\n"
	}
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "empty (want the output of CLUSTER NODES or CLUSTER SHARDS, or a nodes.conf)"},
		{"blank", "\n  \n", "empty"},
		{"prose", "hello world\n", "line 1: 2 fields, want at least 8"},
		{"cluster info", "cluster_state:ok\ncluster_slots_assigned:16384\n", "line 1: 1 fields"},
		{"bad id", line("xyz", "master", "0-16383"), `line 1: node id "xyz" is not 40 hex digits`},
		{"duplicate id", line(id, "master", "0-100") + line(id, "master", "101-16383"), "line 2: node " + id + " is also on line 1"},
		{"bad range", line(id, "master", "0-16384"), "line 1: node " + id + `: slot range "0-16384": slot 16384 out of range`},
		{"reversed range", line(id, "master", "100-0"), "ends before it starts"},
		{"replica with slots", line(id, "slave", "0-16383"), "owns slots but is not a primary"},
		{"gap", line(id, "master", "0-100"), "slots 101-16383 are not owned by any shard"},
		{"overlap", line(id, "master", "0-16383") + line(id2, "master", "16383"), "slot 16383 is owned by node aaaaaaaa (127.0.0.1:7000) and node bbbbbbbb (127.0.0.1:7000)"},
		{"no slots at all", line(id, "master", ""), "no primary owns any slot"},
		{"raw without nodes", "slots\n0\n16383\n", `shard has no "nodes"`},
		{"raw odd bounds", "slots\n0\nnodes\nid\nx\n", "1 slot bounds, want pairs"},
		{"raw bad bound", "slots\n0\nx\nnodes\n", `line 3: "x" is not a slot number`},
		{"raw field without value", "slots\n0\n16383\nnodes\nid\n", `node field "id" has no value`},
		{"raw junk", "slots\n0\n16383\nnodes\nid\nx\nrole\nmaster\nport\n", `node field "port" has no value`},
		{"tty error", "\n(error) ERR This instance has cluster support disabled\n", "line 2 holds an error reply: ERR This instance"},
		{"raw error", "ERR This instance has cluster support disabled\n", "line 1 holds an error reply: ERR This instance"},
		{"nested error", "1) \"slots\"\n2) (error) ERR x\n", "line 2: the reply is an error: ERR x"},
		{"tty unterminated", "1) \"slots\n", "unterminated string"},
		{"tty bad escape", "1) \"\\xZZ\"\n", "bad escape"},
		{"tty not shards", "1) \"foo\"\n", `found "foo" where a shard's "slots" should begin`},
		{"json broken", `[["slots",[0,16383`, "JSON ends inside an array or object"},
		{"json bad", `[["slots" 1]]`, "JSON: invalid character"},
		{"json duplicate primary", `[["slots",[0,1],"nodes",[["id","` + id + `","role","master"]]],["slots",[2,16383],"nodes",[["id","` + id + `","role","master"]]]]`, "is also the primary of the shard on line 1"},
		{"json reversed", `[["slots",[9,1],"nodes",[]]]`, "slot range 9-1 ends before it starts"},
		{"too big", strings.Repeat("x", maxLayoutBytes+1), "more than 16 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseLayout(strings.NewReader(tt.in))
			if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an ErrLayout containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
}

// formatNodes writes l as CLUSTER NODES lines, naming nodes without an id.
func formatNodes(l *Layout) string {
	var b strings.Builder
	used := map[string]bool{}
	for _, s := range l.Shards() {
		used[s.NodeID] = true
	}
	fake := 0
	for i, s := range l.Shards() {
		id, addr := s.NodeID, s.Addr
		for id == "" {
			fake++
			if id = fmt.Sprintf("%040x", fake); used[id] {
				id = ""
			}
		}
		if addr == "" {
			addr = fmt.Sprintf("127.0.0.1:%d", 7000+i)
		}
		fmt.Fprintf(&b, "%s %s@1%s master - 0 0 %d connected", id, addr, "7000", i+1)
		for _, r := range s.Ranges {
			b.WriteString(" " + r.String())
		}
		b.WriteString("\n")
	}
	return b.String()
}

// FuzzParseLayout checks that any input gives a valid layout or an ErrLayout, never a panic,
// and that a layout read back from CLUSTER NODES lines is the same.
func FuzzParseLayout(f *testing.F) {
	files, _ := filepath.Glob("../testdata/layouts/*")
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("slots\n0\n16383\nnodes\nid\nx\n")
	f.Add("1) 1# \"slots\" => 1) (integer) 0\n      2) (integer) 16383\n   2# \"nodes\" => (empty array)\n")
	f.Add(`[{"slots":[0,16383],"nodes":[]}]`)
	f.Fuzz(func(t *testing.T, in string) {
		l, err := ParseLayout(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrLayout) {
				t.Fatalf("error %v does not wrap ErrLayout", err)
			}
			return
		}
		again, err := ParseLayout(strings.NewReader(formatNodes(l)))
		if err != nil {
			t.Fatalf("layout %+v written as CLUSTER NODES does not parse: %v", l.Shards(), err)
		}
		for i := range l.Len() {
			if a, b := l.Shard(i).RangesString(), again.Shard(i).RangesString(); a != b {
				t.Fatalf("shard %d: %s, read back as %s", i, a, b)
			}
		}
	})
}
