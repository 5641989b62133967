package live

import (
	"slices"
	"testing"

	"github.com/rdbgen/rdbgen/cluster"
)

// TestParseOwnView reads the node's own line of CLUSTER NODES: its slots, its migrating and
// importing markers, and the slots that differ from a layout.
func TestParseOwnView(t *testing.T) {
	const a, b = "e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca", "67ed2db8d677e59ec4a4cefb06858cf2a1a89fa1"
	layout, err := cluster.NewLayout([]cluster.Shard{{NodeID: a, Ranges: []cluster.Range{{First: 0, Last: 8191}}}, {NodeID: b, Ranges: []cluster.Range{{First: 8192, Last: 16383}}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text string
		want       []int
		bad        bool
	}{
		{"at rest", a + " 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-8191\n" + b + " 127.0.0.1:7001@17001 master - 0 0 2 connected 8192-16383\n", nil, false},
		{"migrating", a + " 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-8191 [5->-" + b + "]\n", []int{5}, false},
		{"importing", a + " 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-8191 [9000-<-" + b + "]\n", []int{9000}, false},
		{"lost a slot", a + " 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-6 8-8191\n", []int{7}, false},
		{"no myself", a + " 127.0.0.1:7000@17000 master - 0 0 1 connected 0-8191\n", nil, true},
		{"bad marker", a + " 127.0.0.1:7000@17000 myself,master - 0 0 1 connected [x->-" + b + "]\n", nil, true},
	}
	for _, tt := range tests {
		v, err := parseOwnView(tt.text)
		if (err != nil) != tt.bad {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := v.unstable(layout, 0); !tt.bad && !slices.Equal(got, tt.want) {
			t.Errorf("%s: unstable %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := slotList([]int{1, 2, 3, 7}); got != "slots 1-3, 7 (4 slots)" {
		t.Errorf("slotList: %q", got)
	}
}
