package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/internal/miniotest"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/internal/servertest"
	"github.com/rdbgen/rdbgen/manifest"
)

// TestObjectStoreReaders uploads a dump that redis-server wrote to a real MinIO, then has
// every command that reads a dump read it from its s3:// URL: each must give what it gives
// for the local file (diff of the two exits 0; a file written from the object loads with
// the local dump's DEBUG DIGEST; load fills a server with it). Each reads the object where
// it is, with no temporary copy: TMPDIR names a directory that does not exist while it
// runs. verify alone downloads it, for the server it starts loads a file.
func TestObjectStoreReaders(t *testing.T) {
	minio := miniotest.Start(t)
	minio.MakeBucket("dumps")
	local := filepath.Join(conformanceDumps, "types.rdb")
	const url = "s3://dumps/staging/types.rdb"
	if _, stderr, err := run(t, t.Context(), "convert", "-q", "--target", "redis-7.0", local, "-o", url); err != nil {
		t.Fatalf("upload: %v\n%s", err, stderr)
	}
	if _, stderr, err := run(t, t.Context(), "convert", "-q", "--target", "redis-7.0", local, "-o", url+".gz"); err != nil {
		t.Fatalf("upload .gz: %v\n%s", err, stderr)
	}
	if !slices.Contains(minio.Keys("dumps"), "staging/types.rdb"+manifest.Suffix) {
		t.Fatalf("no manifest beside the object: %v", minio.Keys("dumps"))
	}
	want := digest(t, servertest.Start(t, local, "--enable-debug-command", "yes").Addr)
	dir := t.TempDir()
	loaded := func(t *testing.T, path string) {
		t.Helper()
		if got := digest(t, servertest.Start(t, path, "--enable-debug-command", "yes").Addr); got != want {
			t.Fatalf("DEBUG DIGEST %s, want %s (the local dump's)", got, want)
		}
	}
	noTemp := filepath.Join(t.TempDir(), "no-such-dir")
	rows := []struct {
		name     string
		args     []string
		check    func(t *testing.T, out string)
		download bool // the command keeps a copy in TMPDIR
	}{
		{"diff", []string{"diff", local, url}, nil, false},
		{"convert", []string{"convert", "-q", "--target", "redis-7.0", url, "-o", filepath.Join(dir, "convert.rdb")}, func(t *testing.T, _ string) { loaded(t, filepath.Join(dir, "convert.rdb")) }, false},
		{"import", []string{"import", "-q", "--target", "redis-7.0", url, "-o", filepath.Join(dir, "import.rdb")}, func(t *testing.T, _ string) { loaded(t, filepath.Join(dir, "import.rdb")) }, false},
		{"merge", []string{"merge", "-q", "--target", "redis-7.0", url, "-o", filepath.Join(dir, "merge.rdb")}, func(t *testing.T, _ string) { loaded(t, filepath.Join(dir, "merge.rdb")) }, false},
		{"inspect", []string{"inspect", "--json", url}, func(t *testing.T, out string) {
			if !strings.Contains(out, `"keys"`) {
				t.Fatalf("inspect: %s", out)
			}
		}, false},
		{"export", []string{"export", url, "--format", "jsonl"}, func(t *testing.T, out string) {
			stdout, _, err := run(t, t.Context(), "export", local, "--format", "jsonl")
			if err != nil || stdout != out || out == "" {
				t.Fatalf("export of the object differs from the local file's (%v)", err)
			}
		}, false},
		{"verify", append([]string{"verify", "-q", url}, process(t)...), nil, true},
		{"diff gz", []string{"diff", local, "s3://dumps/staging/types.rdb.gz"}, nil, false},
		{"load", nil, nil, false}, // below: it needs a server
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			args := row.args
			var inst string
			if row.name == "load" {
				inst = servertest.StartEmpty(t, "--enable-debug-command", "yes").Addr
				args = []string{"load", "-q", "--addr", inst, url}
			}
			tmp := os.Getenv("TMPDIR")
			if !row.download {
				os.Setenv("TMPDIR", noTemp) // a temporary file is an error
			}
			stdout, stderr, err := run(t, t.Context(), args...)
			os.Setenv("TMPDIR", tmp)
			if err != nil {
				t.Fatalf("rdbgen %s: %v\n%s", strings.Join(args, " "), err, stderr)
			}
			if row.check != nil {
				row.check(t, stdout)
			}
			if inst != "" {
				if got := digest(t, inst); got != want {
					t.Fatalf("loaded from the object: DEBUG DIGEST %s, want %s", got, want)
				}
			}
		})
	}
	// A key with a ?, written as users write it where no option follows, or as %3F.
	t.Run("key with ?", func(t *testing.T) {
		for _, arg := range []string{"s3://dumps/q?1.rdb", "s3://dumps/q%3Fa=1.rdb"} {
			if _, stderr, err := run(t, t.Context(), "convert", "-q", "--target", "redis-7.0", local, "-o", arg); err != nil {
				t.Fatalf("%s: %v\n%s", arg, err, stderr)
			}
			if _, stderr, err := run(t, t.Context(), "diff", local, arg); err != nil {
				t.Fatalf("diff %s: %v\n%s", arg, err, stderr)
			}
		}
		keys := minio.Keys("dumps")
		for _, k := range []string{"q?1.rdb", "q?1.rdb" + manifest.Suffix, "q?a=1.rdb", "q?a=1.rdb" + manifest.Suffix} {
			if !slices.Contains(keys, k) {
				t.Fatalf("no object %q: %v", k, keys)
			}
		}
		_, _, err := run(t, t.Context(), "convert", "-q", local, "-o", "s3://dumps/q?a=1.rdb")
		if err == nil || !strings.Contains(err.Error(), "%3F") {
			t.Fatalf("an option no bucket takes: %v", err)
		}
	})
}

// TestGenerateToObjectStore generates a dataset straight to s3:// and to a local file with
// the same seed and base time: the object, downloaded, is the local file byte for byte, and
// a real redis-server loads it with the same DEBUG DIGEST. A .rdb.gz object is the same
// file compressed, and reads back as the same records.
func TestGenerateToObjectStore(t *testing.T) {
	redistest.RedisServer(t)
	minio := miniotest.Start(t)
	minio.MakeBucket("gen")
	args := []string{"-q", "--count", "20000", "--seed", "7", "--base-time", "2026-01-02T03:04:05Z"}
	local := filepath.Join(t.TempDir(), "local.rdb")
	if _, stderr, err := run(t, t.Context(), append(args, "-o", local)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, key := range []string{"gen.rdb", "gen.rdb.gz"} {
		if _, stderr, err := run(t, t.Context(), append(args, "-o", "s3://gen/"+key)...); err != nil {
			t.Fatalf("%s: %v\n%s", key, err, stderr)
		}
	}
	data := minio.Get("gen", "gen.rdb")
	file, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, file) {
		t.Fatalf("the object (%d bytes) differs from the local file (%d bytes)", len(data), len(file))
	}
	got := filepath.Join(t.TempDir(), "got.rdb")
	if err := os.WriteFile(got, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := digest(t, servertest.Start(t, local, "--enable-debug-command", "yes").Addr)
	if d := digest(t, servertest.Start(t, got, "--enable-debug-command", "yes").Addr); d != want {
		t.Fatalf("the object loads with DEBUG DIGEST %s, the local file %s", d, want)
	}
	if gz := minio.Get("gen", "gen.rdb.gz"); len(gz) < 2 || gz[0] != 0x1f || gz[1] != 0x8b {
		t.Fatalf("gen.rdb.gz is not gzip: % x", gz[:min(len(gz), 8)])
	}
	if _, stderr, err := run(t, t.Context(), "diff", local, "s3://gen/gen.rdb.gz"); err != nil {
		t.Fatalf("diff of the local file and the .gz object: %v\n%s", err, stderr)
	}
	// export writes to object storage too, and its object reads back as the same records.
	back := filepath.Join(t.TempDir(), "back.rdb")
	for _, args := range [][]string{
		{"export", "-q", "s3://gen/gen.rdb", "--format", "jsonl", "-o", "s3://gen/gen.jsonl.gz"},
		{"import", "-q", "s3://gen/gen.jsonl.gz", "-o", back},
		{"diff", local, back},
	} {
		if _, stderr, err := run(t, t.Context(), args...); err != nil {
			t.Fatalf("rdbgen %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
	}
}

// TestObjectStoreFaults checks each failure of an upload: a one-line error naming the URL,
// a non-zero exit, and no object (nor a manifest, nor a pending multipart upload) left.
func TestObjectStoreFaults(t *testing.T) {
	minio := miniotest.Start(t)
	minio.MakeBucket("faults")
	gen := []string{"-q", "--count", "200000000"}
	nothingLeft := func(t *testing.T) {
		t.Helper()
		if keys := minio.Keys("faults"); len(keys) != 0 {
			t.Fatalf("objects left: %v", keys)
		}
		if ups := minio.Uploads("faults"); len(ups) != 0 {
			t.Fatalf("multipart uploads left: %v", ups)
		}
	}
	oneLine := func(t *testing.T, err error, url, want string) {
		t.Helper()
		t.Logf("error: %v", err)
		switch {
		case err == nil:
			t.Fatal("exit 0")
		case strings.Contains(err.Error(), "\n"):
			t.Fatalf("error on more than one line: %q", err)
		case !strings.Contains(err.Error(), url) || !strings.Contains(err.Error(), want):
			t.Fatalf("error %q does not name %s and %q", err, url, want)
		}
	}
	t.Run("bucket missing", func(t *testing.T) {
		_, _, err := run(t, t.Context(), "--count", "10", "-q", "-o", "s3://nosuch/dump.rdb")
		oneLine(t, err, "s3://nosuch/dump.rdb", "not found")
	})
	t.Run("access denied", func(t *testing.T) {
		t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong")
		_, _, err := run(t, t.Context(), "--count", "10", "-q", "-o", "s3://faults/dump.rdb")
		oneLine(t, err, "s3://faults/dump.rdb", "access denied")
		nothingLeft(t)
	})
	t.Run("exists", func(t *testing.T) {
		if _, _, err := run(t, t.Context(), "--count", "10", "-q", "-o", "s3://faults/x.rdb"); err != nil {
			t.Fatal(err)
		}
		first := minio.Get("faults", "x.rdb")
		_, _, err := run(t, t.Context(), "--count", "20", "-q", "-o", "s3://faults/x.rdb")
		oneLine(t, err, "s3://faults/x.rdb", "--force")
		if !bytes.Equal(minio.Get("faults", "x.rdb"), first) {
			t.Fatal("the object was replaced without --force")
		}
		if _, _, err := run(t, t.Context(), "--count", "20", "-q", "-o", "s3://faults/x.rdb", "--force"); err != nil {
			t.Fatalf("--force: %v", err)
		}
		if bytes.Equal(minio.Get("faults", "x.rdb"), first) {
			t.Fatal("--force did not replace the object")
		}
		minio.Delete("faults", "x.rdb", "x.rdb"+manifest.Suffix)
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(1500*time.Millisecond, cancel) // as SIGINT does: the app's context ends
		_, _, err := run(t, ctx, append(gen, "-o", "s3://faults/int.rdb")...)
		t.Logf("error: %v", err)
		if err == nil || !strings.Contains(err.Error(), "interrupted") || !strings.Contains(err.Error(), "s3://faults/int.rdb") {
			t.Fatalf("got %v, want interrupted", err)
		}
		nothingLeft(t)
	})
	bin, built := filepath.Join(t.TempDir(), "rdbgen"), false               // built once, for the signals
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} { // Ctrl-C; a pod's stop
		t.Run(sig.String(), func(t *testing.T) { signalled(t, bin, &built, sig, gen, minio, nothingLeft) })
	}
	t.Run("server killed", func(t *testing.T) {
		time.AfterFunc(1500*time.Millisecond, minio.Kill)
		_, _, err := run(t, t.Context(), append(gen, "-o", "s3://faults/killed.rdb")...)
		oneLine(t, err, "s3://faults/killed.rdb", "")
		minio.Restart()
		if keys := minio.Keys("faults"); len(keys) != 0 {
			t.Fatalf("objects left: %v", keys)
		}
	})
}

// signalled runs generate to s3:// as the binary bin (built unless *built), sends it sig once
// its multipart upload has started, and checks it ends as an interrupted run: exit 130, one
// line naming the URL, and nothing left in the bucket.
func signalled(t *testing.T, bin string, built *bool, sig syscall.Signal, gen []string, minio *miniotest.Server, nothingLeft func(*testing.T)) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if !*built {
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		*built = true
	}
	url := "s3://faults/" + strings.ToLower(sig.String()) + ".rdb"
	cmd := exec.Command(bin, append(gen, "-o", url)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); len(minio.Uploads("faults")) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no multipart upload started within 20s")
		}
	}
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(sig)
	cmd.Wait()
	msg := strings.TrimSpace(stderr.String())
	t.Logf("stderr: %s", msg)
	if code := cmd.ProcessState.ExitCode(); code != 130 || strings.Contains(msg, "\n") || !strings.Contains(msg, url) {
		t.Fatalf("exit %d, stderr %q: want 130 and one line naming the URL", code, msg)
	}
	nothingLeft(t)
}

// TestShardsToObjectStore writes a cluster split under an s3:// prefix, one object per
// shard, and as the pods of an Indexed Job do, each shard alone (--shard-index) under
// another: every object, and its manifest, is the file of the local split byte for byte.
func TestShardsToObjectStore(t *testing.T) {
	minio := miniotest.Start(t)
	minio.MakeBucket("shards")
	args := []string{"-q", "--count", "30000", "--cluster-shards", "3", "--base-time", podBaseTime}
	local := t.TempDir()
	if _, stderr, err := run(t, t.Context(), append(args, "-o", local, "--force")...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, stderr, err := run(t, t.Context(), append(args, "-o", "s3://shards/split/")...); err != nil {
		t.Fatalf("split: %v\n%s", err, stderr)
	}
	for i := range 3 {
		if _, stderr, err := run(t, t.Context(), append(args, "--shard-index", strconv.Itoa(i), "-o", "s3://shards/pods/")...); err != nil {
			t.Fatalf("pod %d: %v\n%s", i, err, stderr)
		}
	}
	if keys := minio.Keys("shards"); len(keys) != 12 {
		t.Fatalf("objects %v, want 3 shard files and their manifests, twice", keys)
	}
	for i := range 3 {
		for _, name := range []string{cluster.ShardFile(i), cluster.ShardFile(i) + manifest.Suffix} {
			want, err := os.ReadFile(filepath.Join(local, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, prefix := range []string{"split/", "pods/"} {
				if !bytes.Equal(minio.Get("shards", prefix+name), want) {
					t.Errorf("s3://shards/%s%s differs from the local split's %s", prefix, name, name)
				}
			}
		}
	}
	_, _, err := run(t, t.Context(), append(args, "-o", "s3://shards/split/")...)
	if err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("a split over existing shard objects: %v", err)
	}
	_, _, err = run(t, t.Context(), append(args, "-o", "s3://shards/noslash")...)
	if err == nil || !strings.Contains(err.Error(), "end it with /") {
		t.Fatalf("a split to a key that is no prefix: %v", err)
	}
}
