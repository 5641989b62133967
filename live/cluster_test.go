package live_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/record"
)

// dbOpens counts the databases a source opens.
type dbOpens struct {
	record.Count
	opens int
}

func (d *dbOpens) BeginDB(db int, c record.Counts) error {
	d.opens++
	return d.Count.BeginDB(db, c)
}

// TestClusterSource reads a three-primary cluster of real redis-servers each way, all
// primaries at a time and fewer: the primaries named in slot order, every key once, database
// 0 opened once, the libraries that every primary holds once, progress adding up over the
// primaries to the keys of all. A primary that refuses the connection fails the reading with
// an error naming it.
func TestClusterSource(t *testing.T) {
	c, layout := servertest.StartCluster(t)
	ctx := t.Context()
	p := c.Client().Pipeline()
	for i := range 3000 {
		p.HSet(ctx, "h:"+strconv.Itoa(i), "f", i)
	}
	if _, err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	var total uint64
	for _, n := range c.Nodes {
		total += uint64(n.Client().DBSize(ctx).Val())
		for _, code := range redistest.FunctionLibraries {
			if err := n.Client().FunctionLoad(ctx, code).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	url := "redis://" + c.Nodes[2].Addr
	for _, tt := range []struct {
		via      live.Via
		parallel int
	}{{live.Sync, 0}, {live.Sync, 1}, {live.Scan, 2}} {
		t.Run(fmt.Sprintf("%s/%d", tt.via, tt.parallel), func(t *testing.T) {
			var last record.Progress
			back := false
			var notices []string
			cs, err := live.OpenCluster(ctx, url, live.Options{Via: tt.via, Progress: func(p record.Progress) {
				back = back || p.Keys < last.Keys || p.Bytes < last.Bytes
				last = p
			}, Notice: func(msg string) { notices = append(notices, msg) }})
			if err != nil {
				t.Fatal(err)
			}
			cs.Parallel = tt.parallel
			if got := cs.Layout().Len(); got != layout.Len() {
				t.Fatalf("%d primaries, want %d", got, layout.Len())
			}
			for i, a := range cs.Primaries() {
				if a.Host != c.Nodes[i].Addr || cs.Layout().Shard(i).NodeID != c.Nodes[i].ID {
					t.Errorf("primary %d: %s %s, want %s %s", i, a.Host, cs.Layout().Shard(i).NodeID, c.Nodes[i].Addr, c.Nodes[i].ID)
				}
			}
			sink := &dbOpens{}
			if err := cs.WriteTo(ctx, sink); err != nil {
				t.Fatal(err)
			}
			if sink.Counts.Keys != total || sink.opens != 1 || sink.Functions != 2 {
				t.Errorf("%d keys (want %d), db opened %d times, %d libraries", sink.Counts.Keys, total, sink.opens, sink.Functions)
			}
			if last.Keys != total || back {
				t.Errorf("progress ended at %d keys (want %d), went back: %v", last.Keys, total, back)
			}
			if cs.Stats().Keys != total {
				t.Errorf("stats: %d keys, want %d", cs.Stats().Keys, total)
			}
			for _, msg := range notices {
				if strings.Contains(msg, "node of a Redis Cluster") {
					t.Errorf("every primary read, yet: %s", msg)
				}
			}
		})
	}

	// One node read alone (a sync, a scan, a snapshot) holds a third of the keys: say so.
	for _, via := range []live.Via{live.Sync, live.Scan, ""} {
		var notices []string
		src, err := live.Open(url, live.Options{Via: via, Notice: func(msg string) { notices = append(notices, msg) }})
		if err != nil {
			t.Fatal(err)
		}
		if via == "" {
			sn, err := src.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			sn.Close()
		} else if err := src.WriteTo(ctx, record.Discard{}); err != nil {
			t.Fatal(err)
		}
		want := url + " is a node of a Redis Cluster: reading its own keys alone (--cluster reads every primary)"
		if !slices.Contains(notices, want) {
			t.Errorf("via %q: notices %q, want %q", via, notices, want)
		}
	}

	cs, err := live.OpenCluster(ctx, url, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := c.Nodes[1].Client()
	if err := bad.ConfigSet(ctx, "requirepass", "secret").Err(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		bad.Do(ctx, "AUTH", "secret")
		bad.ConfigSet(ctx, "requirepass", "")
	}()
	err = cs.WriteTo(ctx, record.Discard{})
	if err == nil || !strings.Contains(err.Error(), c.Nodes[1].Addr) || !strings.Contains(err.Error(), "NOAUTH") {
		t.Errorf("a primary that asks for a password: %v", err)
	}

	if _, err := live.OpenCluster(ctx, url+"/2", live.Options{}); !errors.Is(err, live.ErrBadURL) {
		t.Errorf("database 2: %v", err)
	}
}

// TestOpenClusterNotCluster opens a standalone server as a cluster.
func TestOpenClusterNotCluster(t *testing.T) {
	inst := startServer(t, "")
	_, err := live.OpenCluster(t.Context(), "redis://"+inst.Addr, live.Options{})
	if !errors.Is(err, live.ErrNotCluster) || !strings.Contains(err.Error(), inst.Addr) {
		t.Errorf("got %v", err)
	}
}
