// Package archtest holds the layering test: it reads the module's import graph with
// `go list` and checks it against the layer tables of docs/architecture.md, which it parses,
// so that the page and the test cannot disagree.
package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module path; package names in the tables and in knownViolations are
// relative to it.
const module = "github.com/rdbgen/rdbgen"

// maxDepth is the most packages on one import chain inside the module (the longest chain,
// counted in packages, cmd/rdbgen included). Lower it as the chains get shorter; the target
// of issue 35 is 8.
const maxDepth = 15

// A layer is one row of the page's layer table.
type layer struct {
	name string
	rank int    // lower layers have lower ranks; a package imports only lower ranks, or its own
	same string // imports inside the layer: "yes", "no", or "same role"
}

// A pkg is one row of the page's package table, with its non-test imports inside the module.
type pkg struct {
	path, layer, role string
	imports           []string // relative to module
	std               bool     // imports nothing outside the standard library and the module
}

// TestLayering checks every import of the module's non-test code against the rules of
// docs/architecture.md: an import that breaks a rule fails the test unless knownViolations
// lists it; a listed import that breaks no rule (or no longer exists) fails it too, so the
// list only shrinks.
func TestLayering(t *testing.T) {
	root := moduleRoot(t)
	layers, table := readTables(t, filepath.Join(root, "docs", "architecture.md"))
	pkgs := listPackages(t, root)
	checkTable(t, layers, table, pkgs)
	if t.Failed() {
		return
	}
	for p, info := range pkgs {
		info.layer, info.role = table[p].layer, table[p].role
	}

	found := map[string][]string{} // "from -> to" to the rules it breaks
	for _, v := range violations(layers, pkgs) {
		found[v.edge()] = append(found[v.edge()], v.rule)
	}
	for _, e := range slices.Sorted(maps.Keys(found)) {
		if _, ok := knownViolations[e]; !ok {
			t.Errorf("%s breaks %s (docs/architecture.md); import something of a lower layer, or move the code", e, strings.Join(found[e], "; "))
		}
	}
	for _, e := range slices.Sorted(maps.Keys(knownViolations)) {
		if _, ok := found[e]; !ok {
			t.Errorf("%s is listed in knownViolations but breaks no rule now: delete its line", e)
		}
	}
}

// TestDepth checks the longest chain of imports inside the module against maxDepth.
func TestDepth(t *testing.T) {
	pkgs := listPackages(t, moduleRoot(t))
	chain := longestChain(pkgs)
	t.Logf("depth %d: %s", len(chain), strings.Join(chain, " -> "))
	if len(chain) > maxDepth {
		t.Errorf("the longest import chain has %d packages, more than %d: %s", len(chain), maxDepth, strings.Join(chain, " -> "))
	}
}

// A violation is one import that breaks one rule.
type violation struct{ from, to, rule string }

func (v violation) edge() string { return v.from + " -> " + v.to }

// The rules, as docs/architecture.md states them.
const (
	ruleLeaf     = "rule 1 (record and the format's vocabulary import nothing of the module but the vocabulary, and nothing outside the standard library)"
	ruleCodec    = "rule 2 (the reader and the writer import only the vocabulary, never each other)"
	ruleDown     = "rule 3 (a package imports only lower layers, or its own where the layer allows it: no cycles by layer)"
	ruleStageIO  = "rule 4 (no source, stage or sink imports input or output)"
	ruleBoth     = "rule 5 (only the job layer and cmd import both input and output)"
	ruleInternal = "rule 6 (internal/ packages import only internal/, record and the format's vocabulary)"
)

// violations returns every import of pkgs that breaks a rule, and, as an import of the
// package itself ("<stdlib only>"), a vocabulary package or writer that imports outside the
// standard library.
func violations(layers map[string]layer, pkgs map[string]*pkg) []violation {
	var vs []violation
	for _, p := range pkgs {
		from := layers[p.layer]
		if (p.layer == "vocab" || p.role == "writer") && !p.std {
			vs = append(vs, violation{p.path, "<outside the standard library>", ruleLeaf})
		}
		importsBoth := slices.Contains(p.imports, "input") && slices.Contains(p.imports, "output")
		for _, i := range p.imports {
			q := pkgs[i]
			to := layers[q.layer]
			if p.layer == "vocab" && q.layer != "vocab" {
				vs = append(vs, violation{p.path, i, ruleLeaf})
			}
			if p.layer == "codec" && q.layer != "vocab" {
				vs = append(vs, violation{p.path, i, ruleCodec})
			}
			switch {
			case to.rank > from.rank,
				to.rank == from.rank && p.layer != q.layer,
				p.layer == q.layer && from.same == "no",
				p.layer == q.layer && from.same == "same role" && p.role != q.role:
				vs = append(vs, violation{p.path, i, ruleDown})
			}
			if p.layer == "stage" && (i == "input" || i == "output") {
				vs = append(vs, violation{p.path, i, ruleStageIO})
			}
			if importsBoth && (i == "input" || i == "output") && p.layer != "job" && p.layer != "cmd" {
				vs = append(vs, violation{p.path, i, ruleBoth})
			}
			if strings.HasPrefix(p.path, "internal/") && !strings.HasPrefix(i, "internal/") && i != "record" && i != "rdb" {
				vs = append(vs, violation{p.path, i, ruleInternal})
			}
		}
	}
	return vs
}

// longestChain returns the longest chain of imports inside the module, from its top.
func longestChain(pkgs map[string]*pkg) []string {
	depth := map[string]int{}
	var of func(string) int
	of = func(p string) int {
		if d, ok := depth[p]; ok {
			return d
		}
		depth[p] = 0 // Go allows no import cycles; this only guards the recursion
		d := 0
		for _, i := range pkgs[p].imports {
			d = max(d, of(i))
		}
		depth[p] = d + 1
		return d + 1
	}
	deepest := func(ps []string) string {
		best := ""
		for _, p := range slices.Sorted(slices.Values(ps)) {
			if best == "" || of(p) > of(best) {
				best = p
			}
		}
		return best
	}
	var chain []string
	for p := deepest(slices.Collect(maps.Keys(pkgs))); p != ""; p = deepest(pkgs[p].imports) {
		chain = append(chain, p)
	}
	return chain
}

// checkTable fails the test for a package of the module missing from the page's table, a
// row naming no package, and a row naming an unknown layer.
func checkTable(t *testing.T, layers map[string]layer, table map[string]*pkg, pkgs map[string]*pkg) {
	t.Helper()
	for _, p := range slices.Sorted(maps.Keys(pkgs)) {
		if _, ok := table[p]; !ok {
			t.Errorf("package %s is not in the package table of docs/architecture.md: add a row with its layer", p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(table)) {
		if _, ok := pkgs[p]; !ok {
			t.Errorf("docs/architecture.md lists %s, which is no package of the module: delete its row", p)
		}
		if _, ok := layers[table[p].layer]; !ok {
			t.Errorf("docs/architecture.md gives %s the layer %q, which the layer table does not hold", p, table[p].layer)
		}
	}
}

// readTables parses the layer table and the package table of the page: the markdown tables
// whose header rows start "| Layer | Rank |" and "| Package | Layer |".
func readTables(t *testing.T, path string) (map[string]layer, map[string]*pkg) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	layers, table := map[string]layer{}, map[string]*pkg{}
	kind := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			kind = ""
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		switch {
		case len(cells) >= 3 && cells[0] == "Layer" && cells[1] == "Rank":
			kind = "layer"
		case len(cells) >= 3 && cells[0] == "Package" && cells[1] == "Layer":
			kind = "package"
		case strings.HasPrefix(cells[0], "---"):
		case kind == "layer":
			rank, err := strconv.Atoi(cells[1])
			if err != nil {
				t.Fatalf("%s: layer %s: rank %q is no number", path, cells[0], cells[1])
			}
			layers[cells[0]] = layer{name: cells[0], rank: rank, same: cells[2]}
		case kind == "package":
			if _, dup := table[cells[0]]; dup {
				t.Errorf("%s: package %s has two rows", path, cells[0])
			}
			table[cells[0]] = &pkg{path: cells[0], layer: cells[1], role: cells[2]}
		}
	}
	if len(layers) == 0 || len(table) == 0 {
		t.Fatalf("%s: no layer table or no package table found", path)
	}
	return layers, table
}

// listPackages returns the module's packages and their non-test imports inside the module,
// from `go list -json ./...`.
func listPackages(t *testing.T, root string) map[string]*pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Error", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.Bytes())
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Error      *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list: %v", err)
		}
		if p.Error != nil {
			t.Fatalf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		rel, ok := relative(p.ImportPath)
		if !ok {
			continue
		}
		info := &pkg{path: rel, std: true}
		for _, i := range p.Imports {
			if r, ok := relative(i); ok {
				info.imports = append(info.imports, r)
			} else if first, _, _ := strings.Cut(i, "/"); strings.Contains(first, ".") {
				info.std = false
			}
		}
		pkgs[rel] = info
	}
	return pkgs
}

// relative returns the import path relative to the module, and whether it is inside it.
func relative(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, module+"/")
	return rest, ok
}

// moduleRoot returns the directory of go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(string(bytes.TrimSpace(out)))
}
