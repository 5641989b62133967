package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/redis/go-redis/v9"
)

// writeJSONL writes a JSON Lines import of every type, some keys expiring, in two
// databases, and returns its path.
func writeJSONL(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	exp := time.Now().Add(time.Hour).Format(time.RFC3339Nano)
	for i := range 200 {
		fmt.Fprintf(&b, `{"db":0,"key":"s%d","type":"string","value":"v%d","expiration":%q}`+"\n", i, i, exp)
		fmt.Fprintf(&b, `{"db":0,"key":"h%d","type":"hash","hash":{"f":"%d","g":"x"}}`+"\n", i, i)
		fmt.Fprintf(&b, `{"db":0,"key":"z%d","type":"zset","entries":[{"member":"m","score":%d.5},{"member":"n","score":"-inf"}]}`+"\n", i, i)
	}
	for i := range 200 { // the records of a db come together
		fmt.Fprintf(&b, `{"db":1,"key":"l%d","type":"list","values":["a","b","a"]}`+"\n", i)
		fmt.Fprintf(&b, `{"db":1,"key":"set%d","type":"set","members":["a","b"]}`+"\n", i)
	}
	path := filepath.Join(t.TempDir(), "data.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadEveryInput loads each input that generate and import take into a server, with
// --manifest, then has rdbgen verify --addr check the server against the manifest.
func TestLoadEveryInput(t *testing.T) {
	jsonl := writeJSONL(t)
	tests := []struct {
		name string
		args []string
		keys uint64
	}{
		{"spring-data-redis spec", []string{"--spec", "../../examples/spring-data-redis.yaml"}, 0},
		{"sessions spec scaled", []string{"--spec", "../../examples/sessions.yaml", "--count-scale", "0.002", "--method", "mass"}, 2000},
		{"zset", []string{"--type", "zset", "--members", "1-300", "--count", "20000", "--ttl", "1h", "--method", "mass"}, 20000},
		{"hash", []string{"--type", "hash", "--count", "5000", "--value", "random"}, 5000},
		{"list parallel", []string{"--type", "list", "--members", "1-50", "--count", "2000", "--method", "parallel", "--workers", "4"}, 2000},
		{"set sequential", []string{"--type", "set", "--members", "3", "--count", "500", "--method", "sequential", "--db", "5"}, 500},
		{"json lines", []string{jsonl}, 1000},
		{"json lines mass", []string{"--method", "mass", jsonl}, 1000},
		{"json lines restore", []string{"--method", "restore", jsonl}, 1000},
		{"sessions spec restore", []string{"--spec", "../../examples/sessions.yaml", "--count-scale", "0.002", "--method", "restore", "--workers", "2"}, 2000},
		{"hash restore", []string{"--type", "hash", "--count", "5000", "--value", "random", "--ttl", "1h", "--method", "restore"}, 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst := servertest.StartEmpty(t)
			m := filepath.Join(t.TempDir(), "m.json")
			args := append([]string{"load", "--addr", inst.Addr, "--manifest", m}, tt.args...)
			stdout, _, err := run(t, context.Background(), args...)
			if err != nil {
				t.Fatal(err)
			}
			man, err := manifest.Read(m)
			if err != nil {
				t.Fatal(err)
			}
			if tt.keys > 0 && man.Keys != tt.keys {
				t.Fatalf("manifest of %d keys, want %d", man.Keys, tt.keys)
			}
			if !strings.HasPrefix(stdout, fmt.Sprintf("loaded %d keys (%d with TTL) into ", man.Keys, man.Expires)) {
				t.Fatalf("summary %q, manifest %d keys, %d expiring", stdout, man.Keys, man.Expires)
			}
			report, _, err := run(t, context.Background(), "verify", "--addr", inst.Addr, "--manifest", m)
			if err != nil || !strings.HasSuffix(report, "PASS\n") {
				t.Fatalf("verify: %v\n%s", err, report)
			}
		})
	}
}

// TestLoadStdin loads a JSON Lines import from standard input.
func TestLoadStdin(t *testing.T) {
	data, err := os.ReadFile(writeJSONL(t))
	if err != nil {
		t.Fatal(err)
	}
	inst := servertest.StartEmpty(t)
	stdout, _, err := runStdin(t, data, "load", "--addr", inst.Addr, "-")
	if err != nil || !strings.HasPrefix(stdout, "loaded 1000 keys (200 with TTL) into "+inst.Addr+" by auto") {
		t.Fatalf("%v: %q", err, stdout)
	}
}

// TestLoadCluster loads a spec file into a running cluster of three primaries through one
// of them, then checks the nodes' counts; a database other than 0 is refused, naming the
// flags that put it into db 0, and --db-map, as suggested, loads an input's db 1.
func TestLoadCluster(t *testing.T) {
	c, _ := servertest.StartCluster(t)
	stdout, _, err := run(t, t.Context(), "load", "--cluster", "--addr", c.Nodes[2].Addr, "--type", "hash", "--count", "3000", "--method", "mass")
	want := fmt.Sprintf("loaded 3000 keys (0 with TTL) into the cluster of %s (3 primaries) by mass", c.Nodes[2].Addr)
	if err != nil || !strings.HasPrefix(stdout, want) {
		t.Fatalf("%v: %q, want %q", err, stdout, want)
	}
	var total int64
	for _, n := range c.Nodes {
		total += n.Client().DBSize(t.Context()).Val()
	}
	if total != 3000 {
		t.Fatalf("the nodes hold %d keys, want 3000", total)
	}
	_, _, err = run(t, t.Context(), "load", "--cluster", "--addr", c.Nodes[0].Addr, "--count", "10", "--db", "2")
	if err == nil || !strings.Contains(err.Error(), "db 2: a cluster has db 0 only: load it into db 0") || !strings.Contains(err.Error(), "--db 0") {
		t.Fatalf("db 2: got %v", err)
	}
	dump := redistest.WriteDumpWith(t, nil, func(ctx context.Context, c *redis.Client) error {
		if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
			return err
		}
		return c.Move(ctx, "k", 1).Err()
	})
	_, _, err = run(t, t.Context(), "load", "--cluster", "--addr", c.Nodes[0].Addr, dump)
	if err == nil || !strings.Contains(err.Error(), "db 1: a cluster has db 0 only") || !strings.Contains(err.Error(), "--db-map 1=0") {
		t.Fatalf("an input's db 1: got %v", err)
	}
	if _, _, err = run(t, t.Context(), "load", "--cluster", "--addr", c.Nodes[0].Addr, "--db-map", "1=0", dump); err != nil {
		t.Fatalf("--db-map 1=0, as the error suggests: %v", err)
	}
}
