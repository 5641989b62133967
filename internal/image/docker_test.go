package image_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"
	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/internal/dockercli"
	"github.com/rdbgen/rdbgen/internal/image"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

// testDataset is the dataset the image tests build into images.
var testDataset = dataset.Config{Count: 5000, KeyPrefix: "seeded:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 40, Seed: 9}

// writeDataset writes testDataset for Redis 7.0 to a new file, with its manifest.
func writeDataset(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := testDataset
	res, err := output.Write(context.Background(), f, &d, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	if err != nil {
		t.Fatal(err)
	}
	m := &manifest.Manifest{Format: manifest.FormatVersion, CreatedAt: time.Now().UTC(), Target: res.Target, RDBVersion: res.RDBVersion,
		Checksum: manifest.FormatChecksum(res.Stats.Checksum), Bytes: res.Stats.Bytes, Keys: res.Stats.Keys,
		DBs: map[int]record.Counts{0: {Keys: res.Stats.Keys}}, Dataset: &d}
	if err := manifest.Write(manifest.PathFor(path), m); err != nil {
		t.Fatal(err)
	}
	return path
}

// docker runs a docker command and fails the test if it fails.
func docker(t *testing.T, args ...string) string {
	t.Helper()
	out, err := dockercli.Client{}.Run(context.Background(), nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// uniqueTag returns a new tag for a test image, removed when the test ends.
func uniqueTag(t *testing.T) string {
	t.Helper()
	b := make([]byte, 4)
	rand.Read(b)
	tag := "rdbgen-test/seeded-" + hex.EncodeToString(b) + ":1"
	t.Cleanup(func() { exec.Command("docker", "rmi", "--force", tag).Run() })
	return tag
}

// setUp starts a parallel test of an image: it returns the base image, a dump of
// testDataset, and a free port for the image's server.
func setUp(t *testing.T) (base, dump string, port int) {
	t.Helper()
	t.Parallel()
	base = redistest.Image(t)
	dump = writeDataset(t)
	port, err := server.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return base, dump, port
}

// dockerBuild builds the context dir as tag, as a user would, with the classic builder:
// this engine has no buildx.
func dockerBuild(t *testing.T, tag, dir string) {
	t.Helper()
	build := exec.Command("docker", "build", "--tag", tag, dir)
	build.Env = append(os.Environ(), "DOCKER_BUILDKIT=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("docker build %s: %v\n%s", dir, err, out)
	}
}

// runImage starts a container of tag (see redistest.RunImage), labelled as rdbgen's.
func runImage(t *testing.T, tag string, port int, args ...string) (string, *redis.Client) {
	t.Helper()
	return redistest.RunImage(t, tag, port, []string{server.Label + "=1"}, args...)
}

// checkServes checks that c serves testDataset, and reads the server's save settings.
func checkServes(t *testing.T, c *redis.Client) (save, appendonly string) {
	t.Helper()
	ctx := context.Background()
	if n, err := c.DBSize(ctx).Result(); err != nil || uint64(n) != testDataset.Count {
		t.Fatalf("DBSIZE = %d, %v; want %d", n, err, testDataset.Count)
	}
	for _, i := range []uint64{0, 1, 2499, testDataset.Count - 1} {
		key := string(testDataset.AppendKey(nil, i))
		if got, err := c.Get(ctx, key).Result(); err != nil || got != string(testDataset.AppendValue(nil, i)) {
			t.Fatalf("GET %s = %q, %v", key, got, err)
		}
	}
	cfg, err := c.ConfigGet(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	return cfg["save"], cfg["appendonly"]
}

// stopAndCopyDump sets a new key, stops the container as docker stop does (SIGTERM) and
// returns the dump file it leaves in /data.
func stopAndCopyDump(t *testing.T, name string, c *redis.Client) []byte {
	t.Helper()
	if err := c.Set(context.Background(), "written-after-start", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	docker(t, "stop", name)
	out, err := dockercli.Client{}.Output(context.Background(), nil, "cp", name+":/data/dump.rdb", "-")
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(bytes.NewReader(out))
	if _, err := tr.Next(); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(tr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBuildServesTheDump builds an image on the local test image, starts it, reads the
// dataset back, and checks that the server leaves the dump as it was when it stops.
func TestBuildServesTheDump(t *testing.T) {
	base, dump, port := setUp(t)
	tag := uniqueTag(t)
	var lines []string
	res, err := image.Build(context.Background(), dump, tag, image.Options{
		Base: base, Args: []string{"--port", strconv.Itoa(port)},
		Progress: func(l string) { lines = append(lines, l) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.ID, "sha256:") || res.RDBVersion != 10 || res.Server.MaxRDBVersion != 10 || len(lines) == 0 {
		t.Fatalf("result %+v, %d lines of output", res, len(lines))
	}
	if owner := docker(t, "run", "--rm", "--entrypoint", "redis-server", tag, "--version"); !strings.Contains(owner, "v=7.0") {
		t.Fatalf("the image runs %q", owner)
	}
	labels := docker(t, "image", "inspect", "--format", `{{index .Config.Labels "io.rdbgen.rdb-version"}}`, tag)
	if labels != "10" {
		t.Fatalf("label io.rdbgen.rdb-version = %q", labels)
	}
	name, c := runImage(t, tag, port)
	if save, aof := checkServes(t, c); save != "" || aof != "no" {
		t.Fatalf("save %q, appendonly %q: the server may write the dump", save, aof)
	}
	// rdbgen verify --addr passes against the image's server.
	m, err := manifest.Read(manifest.PathFor(dump))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Server(context.Background(), &redis.Options{Addr: c.Options().Addr}, verify.Options{Manifest: m})
	if err != nil || !rep.Pass || rep.Server.Sampled == 0 {
		t.Fatalf("verify: %v, %+v", err, rep)
	}
	want, _ := os.ReadFile(dump)
	if got := stopAndCopyDump(t, name, c); !bytes.Equal(got, want) {
		t.Fatalf("the dump in the container changed on shutdown (%d bytes, was %d)", len(got), len(want))
	}
}

// TestRunArgsReachTheServer starts an image with arguments after its name, as with the
// official images: they are added to the server's own, which still loads the dump and
// keeps its no-save settings.
func TestRunArgsReachTheServer(t *testing.T) {
	base, dump, port := setUp(t)
	tag := uniqueTag(t)
	if _, err := image.Build(context.Background(), dump, tag, image.Options{Base: base, Args: []string{"--port", strconv.Itoa(port)}}); err != nil {
		t.Fatal(err)
	}
	_, c := runImage(t, tag, port, "--maxmemory", "12mb")
	if save, aof := checkServes(t, c); save != "" || aof != "no" {
		t.Fatalf("save %q, appendonly %q: the run's arguments replaced the image's", save, aof)
	}
	got, err := c.ConfigGet(context.Background(), "maxmemory").Result()
	if err != nil || got["maxmemory"] != strconv.Itoa(12<<20) {
		t.Fatalf("maxmemory = %q, %v; want %d", got["maxmemory"], err, 12<<20)
	}
}

// TestWriteContextPersist writes the build context of a persisting image, builds it with
// docker build as a user would, and checks that the server saves its data on shutdown.
func TestWriteContextPersist(t *testing.T) {
	base, dump, port := setUp(t)
	dir := filepath.Join(t.TempDir(), "context")
	p, err := image.WriteContext(context.Background(), dump, dir, false, image.Options{Base: base, Persist: true, Args: []string{"--port", strconv.Itoa(port)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := redistest.FileSum(t, filepath.Join(dir, image.DumpName)); got != redistest.FileSum(t, dump) {
		t.Fatal("the context's dump differs from the dump")
	}
	if _, err := image.WriteContext(context.Background(), dump, dir, false, image.Options{Base: base}); !errors.Is(err, atomicfile.ErrExists) {
		t.Fatalf("writing over a context without overwrite: %v", err)
	}
	tag := uniqueTag(t)
	dockerBuild(t, tag, dir)
	if !strings.Contains(strings.Join(p.Command, " "), "--dbfilename dump.rdb --port") {
		t.Fatalf("command %q", p.Command)
	}
	name, c := runImage(t, tag, port)
	if save, _ := checkServes(t, c); save == "" {
		t.Fatal("a persisting server has no save points")
	}
	saved := stopAndCopyDump(t, name, c)
	found := false
	err = parser.NewDecoder(bytes.NewReader(saved)).Parse(func(o parser.RedisObject) bool {
		found = found || o.GetKey() == "written-after-start"
		return true
	})
	if err != nil || !found {
		t.Fatalf("the saved dump (%d bytes, %v) lacks the key written after start", len(saved), err)
	}
}

// TestServerOfImageEnv tells the server of a base image whose tag says nothing from the
// REDIS_VERSION its environment sets, as the official images do; an image without it is
// unknown, and refused unless forced.
func TestServerOfImageEnv(t *testing.T) {
	t.Parallel()
	base := redistest.Image(t)
	withEnv, plain := uniqueTag(t), uniqueTag(t)
	withEnv = strings.Replace(withEnv, "seeded-", "cache-", 1)
	t.Cleanup(func() { exec.Command("docker", "rmi", "--force", withEnv).Run() })
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM "+base+"\nENV REDIS_VERSION=7.0.15\n"), 0o644)
	dockerBuild(t, withEnv, dir)
	plain = strings.Replace(plain, "seeded-", "plain-", 1)
	t.Cleanup(func() { exec.Command("docker", "rmi", "--force", plain).Run() })
	docker(t, "tag", base, plain)

	s, ok := image.ServerOf(context.Background(), dockercli.Client{}, withEnv)
	if !ok || s.Version != "7.0" || s.MaxRDBVersion != 10 || s.Source != "REDIS_VERSION" {
		t.Fatalf("ServerOf(%s) = %+v, %v", withEnv, s, ok)
	}
	if s, ok := image.ServerOf(context.Background(), dockercli.Client{}, plain); ok {
		t.Fatalf("ServerOf(%s) = %+v, want unknown", plain, s)
	}
	dump := writeDataset(t)
	if _, err := image.NewPlan(context.Background(), dump, image.Options{Base: plain}); !errors.Is(err, image.ErrUnknownBase) {
		t.Fatalf("unknown base: %v", err)
	}
	if _, err := image.NewPlan(context.Background(), dump, image.Options{Base: plain, Force: true}); err != nil {
		t.Fatalf("unknown base, forced: %v", err)
	}
}
