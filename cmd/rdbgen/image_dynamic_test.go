package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/internal/image"
	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/server"
)

// dynamicRdbgen builds this command as "go build" and "go install" do by default where cgo
// is on (a C compiler at hand): linked dynamically, since rdbgen links net (go-redis),
// whose resolver cgo builds on the C library. Should a build ever come out static, it is
// linked again by the C linker (-linkmode=external), which makes it dynamic.
func dynamicRdbgen(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rdbgen")
	for _, flags := range [][]string{nil, {"-ldflags=-linkmode=external"}} {
		if redistest.Interpreter(t, goBuild(t, bin, []string{"CGO_ENABLED=1"}, flags...)) != "" {
			return bin
		}
	}
	t.Fatalf("go build with cgo made a static %s", bin)
	return ""
}

// otherLibcBase builds a base image FROM scratch whose /lib and /lib64 hold files named as
// this machine's loader and libc that are no such thing, as a base whose libc differs
// (Alpine's musl) holds another: a binary that used them would not start. Its redis-server
// is this machine's, with its loader and libraries in a directory of their own (its
// PT_INTERP rewritten, LD_LIBRARY_PATH set), and REDIS_VERSION says which.
func otherLibcBase(t *testing.T) string {
	t.Helper()
	src, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal(err)
	}
	if src, err = filepath.EvalSymlinks(src); err != nil {
		t.Fatal(err)
	}
	interp := redistest.Interpreter(t, src)
	if interp == "" {
		t.Fatalf("%s is static", src)
	}
	// A directory whose name is as long as the loader's, so that the path fits in place.
	libDir := "/" + strings.Repeat("r", len(path.Dir(interp))-1)
	ctx := t.TempDir()
	root := filepath.Join(ctx, "root")
	for _, d := range []string{libDir, "/usr/local/bin", "/data"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), interp+"\x00") != 1 {
		t.Fatalf("%s holds its loader's path %s %d times", src, interp, strings.Count(string(b), interp+"\x00"))
	}
	b = []byte(strings.Replace(string(b), interp+"\x00", path.Join(libDir, path.Base(interp))+"\x00", 1))
	if err := os.WriteFile(filepath.Join(root, "usr/local/bin/redis-server"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	fakes := []string{interp, "/lib/libc.so.6"}
	// The server's libraries as scripts/redis-image.sh finds them.
	for _, lib := range redistest.Libraries(t, src) {
		if path.Base(lib) == "libc.so.6" {
			fakes = append(fakes, lib)
		}
		b, err := os.ReadFile(lib)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, libDir, path.Base(lib)), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, fake := range fakes {
		if err := os.MkdirAll(filepath.Join(root, path.Dir(fake)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, fake), []byte("not this machine's libc\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	df := "FROM scratch\nCOPY root/ /\nENV REDIS_VERSION=7.0.15 PATH=/usr/local/bin LD_LIBRARY_PATH=" + libDir + "\nWORKDIR /data\nCMD [\"redis-server\"]\n"
	if err := os.WriteFile(filepath.Join(ctx, "Dockerfile"), []byte(df), 0o644); err != nil {
		t.Fatal(err)
	}
	tag := "rdbgen-test/other-libc-" + strconv.Itoa(os.Getpid()) + ":1"
	t.Cleanup(func() { exec.Command("docker", "rmi", "--force", tag).Run() })
	build := exec.Command("docker", "build", "--tag", tag, ctx)
	build.Env = append(os.Environ(), "DOCKER_BUILDKIT=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	return tag
}

// TestImageExpiryFromStartDynamic: the rdbgen that go build makes by default, linked
// dynamically, builds --expiry-from-start images by itself (no --rdbgen-binary): on the
// local test image, and on a base FROM scratch whose /lib holds no usable libc, every key
// of a dump written two days ago with one-hour TTLs is there with about an hour left.
func TestImageExpiryFromStartDynamic(t *testing.T) {
	bases := []string{redistest.Image(t), otherLibcBase(t)}
	dump := generateWith(t, "--count", "1000", "--ttl", "1h", "--base-time", "-48h", "--target", "redis-7.0")
	bin := dynamicRdbgen(t)
	interp := redistest.Interpreter(t, bin)
	ctx := context.Background()
	for i, base := range bases {
		t.Run(base, func(t *testing.T) {
			tag := "rdbgen-test/cli-dynamic-" + strconv.Itoa(i) + "-" + strconv.Itoa(os.Getpid()) + ":1"
			t.Cleanup(func() { exec.Command("docker", "rmi", "--force", tag).Run() })
			out, err := exec.Command(bin, "image", dump, "-t", tag, "--base", base, "--expiry-from-start", "--json").Output()
			if err != nil {
				t.Fatalf("rdbgen image: %v: %s", err, err.(*exec.ExitError).Stderr)
			}
			var sum image.Summary
			if err := json.Unmarshal(out, &sum); err != nil {
				t.Fatal(err)
			}
			if !sum.ExpiryFromStart || len(sum.Libraries) < 2 || sum.Libraries[0] != interp {
				t.Fatalf("summary %s", out)
			}

			port, err := server.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			name, c := redistest.RunImage(t, tag, port, nil, "--port", strconv.Itoa(port))
			if n, err := c.DBSize(ctx).Result(); err != nil || n != 1000 {
				t.Fatalf("DBSIZE %d, %v; want 1000", n, err)
			}
			for _, key := range []string{"key100000001", "key100000500", "key100001000"} {
				if ttl, err := c.PTTL(ctx, key).Result(); err != nil || ttl < 59*time.Minute || ttl > time.Hour+time.Second {
					t.Fatalf("PTTL %s = %v, %v; want about an hour", key, ttl, err)
				}
			}
			logs, _ := exec.Command("docker", "logs", name).CombinedOutput()
			if !strings.Contains(string(logs), "rdbgen entrypoint: moved the expiries of 1000 keys and 0 fields of /data/dump.rdb by 48h") {
				t.Fatalf("logs:\n%s", logs)
			}
			if i == 1 {
				// Without its own loader, the binary meets the base's /lib, and does not start.
				if out, err := exec.Command("docker", "run", "--rm", "--entrypoint", "/usr/local/bin/rdbgen", tag, "--version").CombinedOutput(); err == nil {
					t.Fatalf("rdbgen started with the base's libc: %s", out)
				}
			}
		})
	}
}
