package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/rdbgen/rdbgen/internal/readback"
	"github.com/rdbgen/rdbgen/internal/redistest"
)

// goreleaserBuild is the part of .goreleaser.yaml's build that TestReleaseBuild runs again.
type goreleaserBuild struct {
	Main    string   `yaml:"main"`
	Env     []string `yaml:"env"`
	Goos    []string `yaml:"goos"`
	Goarch  []string `yaml:"goarch"`
	Flags   []string `yaml:"flags"`
	Ldflags []string `yaml:"ldflags"`
}

// Stand-ins for the template fields of the release's ldflags.
var releaseFields = map[string]string{
	"{{ .Version }}":    "9.8.7",
	"{{ .FullCommit }}": "0123456789abcdef0123456789abcdef01234567",
	"{{ .CommitDate }}": "2027-01-02T03:04:05Z",
}

// TestReleaseBuild builds rdbgen as .goreleaser.yaml does, with its ldflags (the template
// fields filled in) and without VCS information, as from a source archive: --version and the
// files it writes name the release, read back by an independent parser; then the release
// image, FROM scratch, runs it.
func TestReleaseBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	data, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []goreleaserBuild `yaml:"builds"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml: %d builds, want 1", len(cfg.Builds))
	}
	b := cfg.Builds[0]
	if b.Main != "./cmd/rdbgen" || !slices.Equal(b.Goos, []string{"linux", "darwin", "windows"}) || !slices.Equal(b.Goarch, []string{"amd64", "arm64"}) ||
		!slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Fatalf(".goreleaser.yaml builds %s for %v × %v with %v", b.Main, b.Goos, b.Goarch, b.Env)
	}
	ldflags := strings.Join(b.Ldflags, " ")
	for field, value := range releaseFields {
		ldflags = strings.ReplaceAll(ldflags, field, value)
	}
	if strings.Contains(ldflags, "{{") {
		t.Fatalf("ldflags with a template field the test does not fill: %s", ldflags)
	}
	bin := goBuild(t, filepath.Join(t.TempDir(), "rdbgen"), append(b.Env, "GOOS=linux"),
		append(slices.Clone(b.Flags), "-buildvcs=false", "-ldflags", ldflags)...)

	out, err := exec.Command(bin, "--version").CombinedOutput()
	want := "rdbgen version 9.8.7 (revision 0123456789ab, 2027-01-02T03:04:05Z; "
	if err != nil || !strings.HasPrefix(string(out), want) {
		t.Fatalf("--version: %v: %q, want it to start with %q", err, out, want)
	}
	dump := filepath.Join(t.TempDir(), "dump.rdb")
	if out, err := exec.Command(bin, "--count", "10", "-o", dump, "-q").CombinedOutput(); err != nil {
		t.Fatalf("generate: %v: %s", err, out)
	}
	file, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	if got := readback.Parse(t, file).Aux["rdbgen-ver"]; got != "9.8.7" {
		t.Errorf("rdbgen-ver AUX field %q, want 9.8.7", got)
	}
	manifest, err := os.ReadFile(dump + ".manifest.json")
	if err != nil || !strings.Contains(string(manifest), `"generator": "rdbgen 9.8.7"`) {
		t.Errorf("manifest: %v\n%s", err, manifest)
	}

	t.Run("image", func(t *testing.T) {
		redistest.Docker(t)
		ctx := t.TempDir()
		if err := os.Link(bin, filepath.Join(ctx, "rdbgen")); err != nil {
			t.Fatal(err)
		}
		tag := "rdbgen-test/release:" + filepath.Base(ctx)
		build := exec.Command("docker", "build", "-q", "--build-arg", "BASE=scratch", "-f", "../../build/release.Dockerfile", "-t", tag, ctx)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("docker build: %v: %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("docker", "image", "rm", "-f", tag).Run() })
		out, err := exec.Command("docker", "run", "--rm", tag, "--version").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), want) {
			t.Fatalf("docker run %s --version: %v: %q", tag, err, out)
		}
	})
}

// TestLicence: the repository carries the Apache License 2.0, and the README says so.
func TestLicence(t *testing.T) {
	licence, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS"} {
		if !strings.Contains(string(licence), want) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil || !strings.Contains(string(readme), "Apache License 2.0 ([LICENSE](LICENSE))") {
		t.Errorf("README.md does not name the licence: %v", err)
	}
}
