package verify_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

// datasets are files from several generate options, each of which must pass.
var datasets = []struct {
	name string
	d    func() dataset.Config
	opts encoder.Options
}{
	{"classic", func() dataset.Config { return classic(2000) }, encoder.Options{}},
	{"ttl with jitter", func() dataset.Config { return withTTL(2000) }, encoder.Options{Target: "redis-7.0"}},
	{"random values in db 3", func() dataset.Config {
		d := withTTL(1000)
		d.DB, d.Value, d.ValueSize, d.Seed = 3, dataset.ValueRandom, 100, 9
		return d
	}, encoder.Options{}},
	{"compressed, long prefix", func() dataset.Config {
		return dataset.Config{Count: 1000, KeyPrefix: "tenant:acme:service:billing:invoice:", KeyStart: 1}
	}, encoder.Options{}},
	{"uncompressed, long prefix", func() dataset.Config {
		return dataset.Config{Count: 1000, KeyPrefix: "tenant:acme:service:billing:invoice:", KeyStart: 1}
	}, encoder.Options{DisableCompression: true}},
	{"int-valued, empty prefix", func() dataset.Config {
		return dataset.Config{Count: 2000, KeyStart: 2147482648} // crosses 2^31: int32 and raw strings
	}, encoder.Options{}},
	{"no checksum, RDB 7", func() dataset.Config { return classic(500) }, encoder.Options{DisableChecksum: true, RDBVersion: 7}},
}

// processOptions returns server options for a local redis-server.
func processOptions(t *testing.T) server.Options {
	return server.Options{Backend: server.BackendProcess, RedisServer: redistest.RedisServer(t)}
}

// dockerOptions returns server options for a fresh container of the test image.
func dockerOptions(t *testing.T) server.Options {
	return server.Options{Backend: server.BackendDocker, Image: redistest.Image(t)}
}

// checkPassReport checks the parts of a passing report of a whole verification.
func checkPassReport(t *testing.T, rep *verify.Report, d dataset.Config, backend server.Backend) {
	t.Helper()
	if rep.File == nil || rep.Load == nil || rep.Server == nil {
		t.Fatalf("report lacks a stage: %+v", rep)
	}
	if rep.Load.Backend != string(backend) || rep.Load.Seconds <= 0 || rep.Load.Addr == "" {
		t.Fatalf("load %+v", rep.Load)
	}
	s := rep.Server
	if s.Keys != d.Count || s.DBs[d.DB].Keys != d.Count || s.DBs[d.DB].Expires != d.Expires() || s.UsedMemory <= 0 || !strings.HasPrefix(s.Version, "7.") {
		t.Fatalf("server %+v", s)
	}
	if want := min(int(d.Count), verify.DefaultSample); s.Sampled != want {
		t.Fatalf("%d records sampled, want %d", s.Sampled, want)
	}
	if s.Absent != 2 {
		t.Fatalf("%d keys checked absent, want 2", s.Absent)
	}
}

func TestFilePassesProcess(t *testing.T) {
	for _, tt := range datasets {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.d()
			path, m := generate(t, d, tt.opts)
			sum := redistest.FileSum(t, path)
			rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: processOptions(t), SampleSeed: 3})
			wantPass(t, rep, err)
			checkPassReport(t, rep, d, server.BackendProcess)
			if redistest.FileSum(t, path) != sum {
				t.Fatal("verify changed the file")
			}
		})
	}
}

func TestFilePassesDocker(t *testing.T) {
	for _, tt := range datasets[1:3] {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.d()
			path, m := generate(t, d, tt.opts)
			sum := redistest.FileSum(t, path)
			rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: dockerOptions(t)})
			wantPass(t, rep, err)
			checkPassReport(t, rep, d, server.BackendDocker)
			if rep.Load.Container == "" {
				t.Fatal("no container named")
			}
			if redistest.FileSum(t, path) != sum {
				t.Fatal("verify changed the file")
			}
		})
	}
}

// TestFileWithoutManifestLoads checks a file without a manifest: the server's counts must
// equal the file's, and nothing is sampled.
func TestFileWithoutManifestLoads(t *testing.T) {
	path, _ := generate(t, withTTL(300), encoder.Options{})
	rep, err := verify.File(testContext(t), path, verify.Options{Server: processOptions(t)})
	wantPass(t, rep, err)
	if rep.Server.Keys != 300 || rep.Server.Expires != 300 || rep.Server.Sampled != 0 || rep.Server.Absent != 0 {
		t.Fatalf("server %+v", rep.Server)
	}
}

// TestFileRefusedByServer writes RDB 12, which Redis 7.0 refuses: the report carries the
// server's own reason, on both backends.
func TestFileRefusedByServer(t *testing.T) {
	path, m := generate(t, classic(100), encoder.Options{Target: "redis-7.4"})
	for _, opts := range []func(*testing.T) server.Options{processOptions, dockerOptions} {
		so := opts(t)
		t.Run(string(so.Backend), func(t *testing.T) {
			rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: so})
			wantFail(t, rep, err, verify.StageLoad, "Can't handle RDB format version 12; give a server that loads RDB 12 (--redis-server), or check the file alone (--backend offline)")
			if !rep.File.Parsed || rep.Load != nil || rep.Server != nil {
				t.Fatalf("report %+v", rep)
			}
		})
	}
}

// TestFilePatchedValue changes a value inside the file and fixes the checksum up: the file
// is sound, and only the spot-check can catch it. The first and last records are always
// sampled; a middle one is caught when the sample covers every record.
func TestFilePatchedValue(t *testing.T) {
	tests := []struct {
		name   string
		record uint64
		sample int
	}{
		{"first record, small sample", 0, 10},
		{"last record, small sample", 999, 10},
		{"middle record, whole sample", 517, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := classic(1000)
			path, m := generate(t, d, encoder.Options{})
			key := string(d.AppendKey(nil, tt.record))
			patched := strings.ToUpper(key[:1]) + key[1:]
			patchValue(t, path, key, key, patched)

			// The file is sound: its checksum is right, and it holds the manifest's counts.
			rep, err := verify.File(testContext(t), path, verify.Options{Offline: true})
			wantPass(t, rep, err)
			if rep.File.ChecksumStatus != verify.ChecksumOK || rep.File.Keys != 1000 {
				t.Fatalf("the patched file is not sound: %+v", rep.File)
			}
			// The manifest's checksum is the original file's: put the new one in, as if
			// the manifest were written for the patched file.
			m.Checksum = rep.File.Checksum
			opts := verify.Options{Manifest: m, Offline: true}
			rep, err = verify.File(testContext(t), path, opts)
			wantPass(t, rep, err)

			opts.Offline, opts.Server, opts.Sample = false, processOptions(t), tt.sample
			rep, err = verify.File(testContext(t), path, opts)
			wantFail(t, rep, err, verify.StageServer, fmt.Sprintf(`db 0 key %q: value: got %q, want %q`, key, patched, key))
			if rep.MismatchCount != 1 {
				t.Fatalf("%d mismatches, want 1: %v", rep.MismatchCount, rep.Mismatches)
			}
		})
	}
}

// TestFileExpiredDataset checks a dataset whose keys expired before it was loaded: Redis
// drops them, and the report says why the counts differ.
func TestFileExpiredDataset(t *testing.T) {
	d := classic(100)
	d.TTL, d.BaseTimeMS = time.Second, time.Now().Add(-time.Minute).UnixMilli()
	path, m := generate(t, d, encoder.Options{})
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: processOptions(t)})
	wantFail(t, rep, err, verify.StageServer, "server: expired: the keys expire from ")
	if rep.Server.Keys != 0 {
		t.Fatalf("server holds %d keys", rep.Server.Keys)
	}
}

func TestFileServerProgress(t *testing.T) {
	path, m := generate(t, classic(1000), encoder.Options{})
	var stages []verify.Stage
	var last record.Progress
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: processOptions(t), Sample: 250,
		Progress: func(p record.Progress) {
			if len(stages) == 0 || stages[len(stages)-1] != verify.Stage(p.Stage) {
				stages = append(stages, verify.Stage(p.Stage))
			}
			last = p
		}})
	wantPass(t, rep, err)
	// A small file loads between two polls: the load stage may not report.
	if stages[0] != verify.StageFile || stages[len(stages)-1] != verify.StageServer {
		t.Fatalf("stages %v", stages)
	}
	if last.Keys != 250 || last.Total != 250 {
		t.Fatalf("last progress %+v", last)
	}
}

func TestFileDockerUnavailable(t *testing.T) {
	path, m := generate(t, classic(10), encoder.Options{})
	so := server.Options{Backend: server.BackendDocker, DockerHost: "unix:///nonexistent/docker.sock"}
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: so})
	if !errors.Is(err, server.ErrDockerUnavailable) || rep != nil {
		t.Fatalf("got %v, %v; want ErrDockerUnavailable", rep, err)
	}
}

// startServer starts a redis-server on a generated file, for checks of a live server.
func startServer(t *testing.T, d dataset.Config) (*server.Instance, *verify.Options) {
	t.Helper()
	path, m := generate(t, d, encoder.Options{})
	inst, err := server.Start(testContext(t), path, processOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	return inst, &verify.Options{Manifest: m}
}

func TestServerLive(t *testing.T) {
	d := withTTL(1000)
	inst, opts := startServer(t, d)
	rep, err := verify.Server(testContext(t), &redis.Options{Addr: inst.Addr}, *opts)
	wantPass(t, rep, err)
	if rep.File != nil || rep.Load != nil || rep.Server.Sampled != 1000 || rep.Server.Keys != 1000 {
		t.Fatalf("report %+v %+v", rep, rep.Server)
	}
}

// TestServerLiveMismatches changes a live server in each way the check must catch.
func TestServerLiveMismatches(t *testing.T) {
	d := withTTL(500)
	first, last := string(d.AppendKey(nil, 0)), string(d.AppendKey(nil, 499))
	lastExpiry := time.UnixMilli(d.ExpireAtMS(499))
	before, after := "key100000000", "key100000501"
	tests := []struct {
		name   string
		change func(ctx context.Context, c *redis.Client) error
		want   []string // in the mismatches, in this order
	}{
		{"value", func(ctx context.Context, c *redis.Client) error {
			return c.SetArgs(ctx, first, "other", redis.SetArgs{KeepTTL: true}).Err()
		}, []string{fmt.Sprintf(`server: db 0 key %q: value: got "other", want %q`, first, first)}},
		{"type", func(ctx context.Context, c *redis.Client) error {
			c.Del(ctx, last)
			c.RPush(ctx, last, "x")
			return c.PExpireAt(ctx, last, lastExpiry).Err()
		}, []string{fmt.Sprintf(`server: db 0 key %q: type: got list, want string`, last)}},
		{"missing, and a key outside the range", func(ctx context.Context, c *redis.Client) error {
			c.Del(ctx, last)
			return c.Set(ctx, after, "x", time.Hour).Err()
		}, []string{
			fmt.Sprintf(`server: db 0 key %q: missing`, last),
			fmt.Sprintf(`server: db 0 key %q: exists: got present, want absent (outside the dataset)`, after),
		}},
		{"a key before the first", func(ctx context.Context, c *redis.Client) error { return c.Set(ctx, before, "x", 0).Err() },
			[]string{
				"server: keys in db 0: got 501, want 500 (manifest)",
				"server: DBSIZE of db 0: got 501, want 500 (manifest)",
				fmt.Sprintf(`server: db 0 key %q: exists: got present`, before),
			}},
		{"ttl removed", func(ctx context.Context, c *redis.Client) error { return c.Persist(ctx, first).Err() },
			[]string{
				"server: keys with TTL in db 0: got 499, want 500 (manifest)",
				fmt.Sprintf(`server: db 0 key %q: ttl: got none, want `, first),
			}},
		{"ttl changed", func(ctx context.Context, c *redis.Client) error { return c.Expire(ctx, first, 2*time.Hour).Err() },
			[]string{fmt.Sprintf(`server: db 0 key %q: ttl: got 7`, first)}}, // 2 h, about 7200000 ms
		{"key moved to another db", func(ctx context.Context, c *redis.Client) error { return c.Move(ctx, first, 5).Err() },
			[]string{
				"server: keys in db 0: got 499, want 500 (manifest)",
				"server: keys with TTL in db 0: got 499, want 500 (manifest)",
				"server: keys in db 5: got 1, want 0 (manifest)",
				"server: keys with TTL in db 5: got 1, want 0 (manifest)",
				"server: DBSIZE of db 0: got 499, want 500 (manifest)",
				fmt.Sprintf(`server: db 0 key %q: missing`, first),
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst, opts := startServer(t, d)
			ctx := testContext(t)
			if err := tt.change(ctx, inst.Client()); err != nil {
				t.Fatal(err)
			}
			rep, err := verify.Server(ctx, &redis.Options{Addr: inst.Addr}, *opts)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Pass || !strings.HasPrefix(rep.Reason, rep.Mismatches[0].String()) {
				t.Fatalf("report %+v", rep)
			}
			i := 0
			for _, m := range rep.Mismatches {
				if i < len(tt.want) && strings.HasPrefix(m.String(), tt.want[i]) {
					i++
				}
			}
			if i < len(tt.want) || rep.MismatchCount != len(tt.want) {
				t.Fatalf("mismatches %q, want %q", rep.Mismatches, tt.want)
			}
		})
	}
}

func TestServerErrors(t *testing.T) {
	if _, err := verify.Server(testContext(t), &redis.Options{Addr: "127.0.0.1:1"}, verify.Options{}); !errors.Is(err, verify.ErrNoManifest) {
		t.Fatalf("without a manifest: %v", err)
	}
	_, m := generate(t, classic(10), encoder.Options{})
	port, err := server.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	rep, err := verify.Server(testContext(t), &redis.Options{Addr: addr}, verify.Options{Manifest: m})
	if err == nil || rep != nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("no server: got %v, %v", rep, err)
	}
}
