package cluster_test

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/spec"
)

// listed collects what a key lister lists: "db/key/expires" and how many times.
type listed map[string]int

func (l listed) add(db int, key []byte, expires bool) { l[fmt.Sprintf("%d/%s/%t", db, key, expires)]++ }

// TestListKeysPart checks that the parts of the sources that CountShards counts in parallel
// together list exactly the keys that ListKeys lists, whatever the number of parts.
func TestListKeysPart(t *testing.T) {
	s, err := spec.Parse("parts.yaml", []byte(`families:
  - {key: "a{id}", count: 7, value: v}
  - {key: "b{id}", count: 1, db: 2, ttl: 1h, value: v}
  - {key: "one", type: set, db: 2, members: {of_family: "a{id}"}}
`))
	if err != nil {
		t.Fatal(err)
	}
	p := s.Params
	p.BaseTimeMS = time.Now().UnixMilli()
	if err := s.SetParams(p); err != nil {
		t.Fatal(err)
	}
	sources := map[string]cluster.PartLister{
		"empty dataset":     &dataset.Config{KeyPrefix: "k"},
		"one key":           &dataset.Config{Count: 1, KeyPrefix: "k", KeyStart: 9},
		"carry of digits":   &dataset.Config{Count: 1000, KeyPrefix: "k", KeyStart: 1, DB: 4},
		"random values ttl": &dataset.Config{Count: 99, KeyPrefix: "k", KeyStart: 995, Value: dataset.ValueRandom, ValueSize: 8, TTL: time.Hour, BaseTimeMS: 1},
		"spec file":         s,
	}
	for name, src := range sources {
		whole := listed{}
		if err := src.ListKeys(context.Background(), whole.add); err != nil {
			t.Fatal(err)
		}
		for _, parts := range []int{1, 2, 3, 7, 1000, 1001} {
			t.Run(fmt.Sprintf("%s/%d parts", name, parts), func(t *testing.T) {
				got := listed{}
				for part := range parts {
					if err := src.ListKeysPart(context.Background(), part, parts, got.add); err != nil {
						t.Fatal(err)
					}
				}
				if !maps.Equal(got, whole) {
					t.Fatalf("the parts list %d keys, ListKeys %d", len(got), len(whole))
				}
			})
		}
		for _, bad := range [][2]int{{-1, 2}, {2, 2}, {0, 0}} {
			err := src.ListKeysPart(context.Background(), bad[0], bad[1], listed{}.add)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("part %d of %d", bad[0], bad[1])) {
				t.Errorf("%s: part %d of %d: %v", name, bad[0], bad[1], err)
			}
		}
	}
}
