package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fx "github.com/rdbgen/rdbgen/internal/rdbfixture"
	"github.com/rdbgen/rdbgen/manifest"
)

// moduleDump writes fx.ModuleFile: two values of MBbloom--, one of ReJSON-RL, a module AUX
// payload and a string key.
func moduleDump(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "modules.rdb")
	if err := os.WriteFile(path, fx.ModuleFile(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestModuleValuesReported checks that inspect and verify report module keys per module and
// pass, and that convert carries module values and module AUX data byte for byte, with or
// without --skip-unsupported, which leaves nothing out.
func TestModuleValuesReported(t *testing.T) {
	ctx := context.Background()
	in := moduleDump(t)

	stdout, _, err := run(t, ctx, "inspect", in)
	if err != nil || !strings.Contains(stdout, "module keys per module type (a server loads them only with their module): 2 MBbloom--, 1 ReJSON-RL") ||
		!strings.Contains(stdout, "module AUX data: 1 ft-index0") || !strings.Contains(stdout, "a lower bound") {
		t.Fatalf("inspect: %v\n%s", err, stdout)
	}
	stdout, _, err = run(t, ctx, "inspect", "--json", in)
	var rep struct {
		Keys    uint64 `json:"keys"`
		Modules []struct {
			Module string
			Count  uint64
		} `json:"modules"`
	}
	if err != nil || json.Unmarshal([]byte(stdout), &rep) != nil || rep.Keys != 4 || len(rep.Modules) != 2 || rep.Modules[0].Count != 2 {
		t.Fatalf("inspect --json: %v\n%s", err, stdout)
	}

	for _, backend := range []string{"offline", "process"} {
		stdout, _, err = run(t, ctx, "verify", "--backend", backend, in)
		if err != nil || !strings.Contains(stdout, "PASS") || !strings.Contains(stdout, "module data: 2 MBbloom--, 1 ReJSON-RL, 1 AUX of ft-index0") ||
			!strings.Contains(stdout, "db 0: 4 keys, 1 with TTL (3 module, 1 string)") {
			t.Fatalf("verify --backend %s: %v\n%s", backend, err, stdout)
		}
		if backend == "process" && !strings.Contains(stdout, "load      skipped: the file holds module data") {
			t.Fatalf("verify: no word of the skipped load\n%s", stdout)
		}
	}

	for _, flags := range [][]string{nil, {"--skip-unsupported"}} {
		out := filepath.Join(t.TempDir(), "out.rdb")
		stdout, _, err = run(t, ctx, append([]string{"convert", in, "-o", out}, flags...)...)
		if err != nil || !strings.Contains(stdout, "wrote 4 keys") || strings.Contains(stdout, "left out") {
			t.Fatalf("convert %v: %v\n%s", flags, err, stdout)
		}
		m, err := manifest.Read(manifest.PathFor(out))
		if err != nil || m.Import == nil || m.Import.Skipped != 0 || m.Import.Records != 4 {
			t.Fatalf("manifest %+v, %v", m.Import, err)
		}
		stdout, _, err = run(t, ctx, "inspect", out)
		if err != nil || !strings.Contains(stdout, "2 MBbloom--, 1 ReJSON-RL") || !strings.Contains(stdout, "module AUX data: 1 ft-index0") {
			t.Fatalf("inspect of the output: %v\n%s", err, stdout)
		}
	}
}
