package cluster

import (
	"errors"
	"fmt"
	"os"
)

// LayoutFor returns the layout that rdbgen's --cluster-shards (n; nSet when given) and
// --slots-from (path; pathSet when given) ask for: n even shards, or the primaries of a
// file of CLUSTER NODES or CLUSTER SHARDS output, or a nodes.conf, which n must then count.
func LayoutFor(n int, nSet bool, path string, pathSet bool) (*Layout, error) {
	if path == "" {
		if pathSet {
			return nil, errors.New("--slots-from needs a file name")
		}
		if n < 1 || n > MaxShards {
			return nil, fmt.Errorf("--cluster-shards %d out of range (1 to %d)", n, MaxShards)
		}
		return Even(n)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--slots-from: %w", err)
	}
	defer f.Close()
	l, err := ParseLayout(f)
	if err != nil {
		return nil, fmt.Errorf("--slots-from %s: %w", path, err)
	}
	if nSet && n != l.Len() {
		return nil, fmt.Errorf("--cluster-shards %d, but %s has %d primaries owning slots", n, path, l.Len())
	}
	return l, nil
}
