package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/image"
	"github.com/rdbgen/rdbgen/internal/redistest"
)

// writeTestDump writes a dump of 100 keys and its manifest with rdbgen generate.
func writeTestDump(t *testing.T, args ...string) string {
	t.Helper()
	return generateWith(t, append([]string{"--count", "100"}, args...)...)
}

func TestImageContext(t *testing.T) {
	dump := writeTestDump(t, "--target", "redis-7.0")
	dir := filepath.Join(t.TempDir(), "ctx")
	// The flags after the dump are read too, though urfave/cli stops at the first argument.
	stdout, _, err := run(t, context.Background(), "image", dump, "--context", dir, "--base", "redis:7.0", "--json", "--", "--port", "7000")
	if err != nil {
		t.Fatal(err)
	}
	var sum image.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if sum.Context != dir || sum.RDBVersion != 10 || sum.Keys == nil || *sum.Keys != 100 || sum.Server != "Redis 7.0 (from the tag)" {
		t.Fatalf("summary %+v", sum)
	}
	df, err := os.ReadFile(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(df), "FROM redis:7.0\n") || !strings.Contains(string(df), `"--save","","--port","7000"]`) {
		t.Fatalf("Dockerfile:\n%s", df)
	}
	if redistest.FileSum(t, filepath.Join(dir, "dump.rdb")) != redistest.FileSum(t, dump) {
		t.Fatal("the context's dump differs")
	}
	// Again: the files exist now.
	_, _, err = run(t, context.Background(), "image", "--context", dir, "--base", "redis:7.0", dump)
	if err == nil || !strings.Contains(err.Error(), "file exists (use --force to overwrite it)") {
		t.Fatalf("second run: %v", err)
	}
	stdout, _, err = run(t, context.Background(), "image", "--context", dir, "--base", "redis:7.0", dump, "-f")
	if err != nil || !strings.Contains(stdout, "wrote "+filepath.Join(dir, "Dockerfile")+" and "+filepath.Join(dir, "dump.rdb")+" from "+dump) {
		t.Fatalf("with --force: %v, %q", err, stdout)
	}
}

func TestImageBuild(t *testing.T) {
	base := redistest.Image(t)
	dump := writeTestDump(t)
	tag := "rdbgen-test/cli-seeded:1"
	t.Cleanup(func() { exec.Command("docker", "rmi", "--force", tag).Run() })
	stdout, _, err := run(t, context.Background(), "image", dump, "-t", tag, "--base", base)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout, "built "+tag+" (sha256:") || !strings.Contains(stdout, "RDB 9, 100 keys") || !strings.Contains(stdout, "docker run -p 6379:6379 "+tag) {
		t.Fatalf("summary %q", stdout)
	}
}

func TestImageBadInput(t *testing.T) {
	dump := writeTestDump(t)
	v12 := writeTestDump(t, "--target", "redis-7.4")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no dump", []string{"-t", "x:1"}, "want one dump file, got 0 arguments"},
		{"two dumps", []string{dump, dump, "-t", "x:1"}, "want one dump file, got 2 arguments"},
		{"no tag", []string{dump}, "-t TAG names the image to build (or --context DIR writes its build context)"},
		{"tag and context", []string{dump, "-t", "x:1", "--context", "d"}, "-t and --context do not go together"},
		{"too new", []string{v12, "-t", "x:1", "--base", "redis:7.0"}, "is RDB version 12, and base image redis:7.0 runs Redis 7.0 (from the tag), which loads versions up to 10"},
		{"unknown base", []string{dump, "-t", "x:1", "--base", "mycorp/cache:prod", "--docker-host", "unix:///nonexistent.sock"}, "cannot tell which RDB versions base image mycorp/cache:prod loads"},
		{"missing dump", []string{"nope.rdb", "-t", "x:1"}, "open dump: open nope.rdb: no such file or directory"},
		{"not a dump", []string{dump + ".manifest.json", "-t", "x:1"}, "not an RDB file"},
		{"bad tag", []string{dump, "-t", "Bad Tag"}, `tag "Bad Tag" is not an image reference`},
		{"unknown flag after dump", []string{dump, "--tga", "x"}, "--tga: no such flag for rdbgen image"},
		{"flag without value", []string{dump, "-t"}, "flag needs an argument: -t"},
		{"appendonly", []string{dump, "-t", "x:1", "--", "--appendonly", "yes"}, "would make the server ignore the dump"},
		{"no docker", []string{dump, "-t", "x:1", "--docker-host", "unix:///nonexistent.sock"}, "docker unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkBadInput(t, append([]string{"image"}, tt.args...), tt.want) })
	}
}
