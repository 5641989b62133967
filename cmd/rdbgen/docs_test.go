package main

// The tests of the documentation (README.md and the pages of docs/): every Go snippet
// compiles against the module, every relative link reaches a file (and heading) that
// exists, the README stays a short front page, and no page quotes a commit.

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// docsRoot is the repository's root, seen from this package's directory.
const docsRoot = "../.."

// docPage is one Markdown file: its path from the root and its lines.
type docPage struct {
	path  string
	lines []string
}

// docPages reads README.md and every docs/**/*.md.
func docPages(t *testing.T) []docPage {
	t.Helper()
	paths := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(docsRoot, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(docsRoot, p)
			if err != nil {
				return err
			}
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []docPage
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join(docsRoot, p))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, docPage{path: p, lines: strings.Split(string(b), "\n")})
	}
	return out
}

// docSnippet is a fenced block of a page: its language, the line its first line of code is on
// (1-based), and its text.
type docSnippet struct {
	lang string
	line int
	text string
}

// blocks returns the fenced blocks (```lang … ```) of a page.
func (p docPage) blocks() []docSnippet {
	var out []docSnippet
	var cur *docSnippet
	for i, l := range p.lines {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &docSnippet{lang: strings.TrimSpace(strings.TrimPrefix(l, "```")), line: i + 2}
		case cur != nil && strings.HasPrefix(l, "```"):
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += l + "\n"
		}
	}
	return out
}

// prose returns the page's lines outside fenced blocks, with their line numbers; fenced
// lines come back empty, so that indexes stay line numbers - 1.
func (p docPage) prose() []string {
	out := make([]string, len(p.lines))
	in := false
	for i, l := range p.lines {
		if strings.HasPrefix(l, "```") {
			in = !in
			continue
		}
		if !in {
			out[i] = l
		}
	}
	return out
}

// TestGoSnippetsCompile type-checks every ```go block of README.md and docs/ against this
// module (go vet, from the repository's root, so that the module's packages and its
// dependencies resolve as they do for the module's own code). A block is a whole Go file:
// a package clause, its imports, then its code; one that declares a Test function is
// checked as a _test.go file. A block that does not compile fails with its page and line.
func TestGoSnippetsCompile(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to compile the docs' snippets: %v", err)
	}
	abs, err := filepath.Abs(docsRoot)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range docPages(t) {
		for _, s := range p.blocks() {
			if s.lang != "go" {
				continue
			}
			n++
			where := fmt.Sprintf("%s:%d", p.path, s.line)
			if !strings.HasPrefix(strings.TrimSpace(stripLineComments(s.text)), "package ") {
				t.Errorf("%s: a ```go block must be a whole file, starting with its package clause", where)
				continue
			}
			dir := t.TempDir()
			name := "main.go"
			if strings.Contains(s.text, "func Test") {
				name = "snippet_test.go"
			}
			// The line directive makes the compiler's positions the page's own.
			src := fmt.Sprintf("//line %s:%d\n%s", filepath.Join(abs, p.path), s.line, s.text)
			file := filepath.Join(dir, name)
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(goTool, "vet", file)
			cmd.Dir = docsRoot
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: the Go snippet does not compile: %v\n%s", where, err, strings.ReplaceAll(string(out), abs+string(filepath.Separator), ""))
			}
		}
	}
	if n == 0 {
		t.Fatal("no ```go block found: the library page's examples are gone")
	}
}

// stripLineComments drops the // comment lines that may come before a package clause.
func stripLineComments(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// mdLink matches a Markdown link's target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// mdCodeSpan matches inline code, whose text is not a link.
var mdCodeSpan = regexp.MustCompile("`[^`]*`")

// TestRelativeLinks checks every relative link of README.md and docs/: the file (or
// directory) it names exists, and a #fragment is the anchor of one of that page's headings
// (GitHub's: lower case, punctuation dropped, spaces as hyphens).
func TestRelativeLinks(t *testing.T) {
	all := docPages(t)
	anchors := map[string]map[string]bool{}
	for _, p := range all {
		anchors[p.path] = headingAnchors(p)
	}
	n := 0
	for _, p := range all {
		for i, l := range p.prose() {
			for _, m := range mdLink.FindAllStringSubmatch(mdCodeSpan.ReplaceAllString(l, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				n++
				where := fmt.Sprintf("%s:%d", p.path, i+1)
				file, frag, _ := strings.Cut(target, "#")
				dest := p.path
				if file != "" {
					dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(p.path), file)))
					if strings.HasPrefix(dest, "../") {
						t.Errorf("%s: %s leaves the repository", where, target)
						continue
					}
					if _, err := os.Stat(filepath.Join(docsRoot, dest)); err != nil {
						if writtenElsewhere[dest] {
							continue
						}
						t.Errorf("%s: %s: no such file (%s)", where, target, dest)
						continue
					}
				}
				if frag == "" {
					continue
				}
				a, ok := anchors[dest]
				if !ok {
					t.Errorf("%s: %s: an anchor in %s, which is not a Markdown page", where, target, dest)
					continue
				}
				if !a[frag] {
					t.Errorf("%s: %s: %s has no heading with the anchor #%s", where, target, dest, frag)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no relative link found")
	}
}

// writtenElsewhere are pages that the README links to and another branch writes (issue 35:
// docs/architecture.md comes with the layering test). A link to one is allowed while the
// page is absent; once it is merged, its file and anchors are checked as any other. Delete
// an entry when its page has landed.
var writtenElsewhere = map[string]bool{"docs/architecture.md": true}

// headingAnchors returns the anchors GitHub gives a page's headings.
func headingAnchors(p docPage) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range p.prose() {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		a := anchorSlug(text)
		if k := seen[a]; k > 0 {
			out[fmt.Sprintf("%s-%d", a, k)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// anchorSlug is GitHub's anchor of a heading's text.
func anchorSlug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSlug pins the anchor rule on headings of these pages.
func TestSlug(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Memory estimate: `used_memory` before loading", "memory-estimate-used_memory-before-loading"},
		{"Beyond one machine: one pod per shard", "beyond-one-machine-one-pod-per-shard"},
		{"Object storage: `s3://`, `gs://`, `azblob://` in and out", "object-storage-s3-gs-azblob-in-and-out"},
		{"HTML report", "html-report"},
	} {
		if got := anchorSlug(tt.in); got != tt.want {
			t.Errorf("anchorSlug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// setupLines are the two commands of a fresh machine, as the README has always given them.
var setupLines = []string{
	"go run ./cmd/rdbgen --count 10000000 -o dump.rdb   # the main job: 10M keys into dump.rdb",
	"make test                                          # the tests (installs what they need if missing)",
}

// TestReadmeFrontPage: the README is a front page of at most about 250 lines that keeps the
// two set-up commands, and links to every page of docs/.
func TestReadmeFrontPage(t *testing.T) {
	var readme docPage
	all := docPages(t)
	for _, p := range all {
		if p.path == "README.md" {
			readme = p
		}
	}
	if n := len(readme.lines); n > 250 {
		t.Errorf("README.md has %d lines; keep it to 250 and move the detail into docs/", n)
	}
	text := strings.Join(readme.lines, "\n")
	for _, c := range setupLines {
		if !strings.Contains(text, "\n"+c+"\n") {
			t.Errorf("README.md lacks the set-up line %q", c)
		}
	}
	for _, p := range all {
		if p.path == "README.md" || !strings.HasPrefix(p.path, "docs/") {
			continue
		}
		if !strings.Contains(text, "]("+p.path+")") {
			t.Errorf("README.md does not link to %s", p.path)
		}
	}
}

// TestNoCommitHashes: benchmark figures belong with the command that makes them, and commit
// hashes in closing notes, not in the docs: no prose of a page holds a hex word of 7 to 40
// digits that mixes letters and digits (fenced blocks, such as a report's checksum, aside).
func TestNoCommitHashes(t *testing.T) {
	hex := regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	for _, p := range docPages(t) {
		for i, l := range p.prose() {
			for _, m := range hex.FindAllString(l, -1) {
				if strings.ContainsAny(m, "0123456789") && strings.ContainsAny(m, "abcdef") {
					t.Errorf("%s:%d: %q looks like a commit hash", p.path, i+1, m)
				}
			}
		}
	}
}

// docsOtherFlags are flags of other programs that the docs quote, beyond those messages
// quote (otherProgramFlags): kubectl's, the AWS CLI's, goreleaser's, redis-cli's.
var docsOtherFlags = []string{"for", "timeout", "snapshot-arns", "clean", "raw", "json", "persist", "maxmemory-policy"}

// TestDocsNameRealFlags checks the flags the docs name against the commands:
//   - a command line of a page (in a sh block or inline code: rdbgen [COMMAND] …, up to a
//     pipe, && or a comment) uses only flags of that command;
//   - a flag table of a command's page (docs/commands/NAME.md, rows starting with a flag)
//     lists only flags of that command;
//   - any other --name of README.md and docs/ is a flag of some rdbgen command, or of
//     another program the docs quote.
func TestDocsNameRealFlags(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	known := anyCommandFlags(app)
	known["version"] = true // rdbgen --version: urfave/cli's VersionFlag
	for _, f := range append(slices.Clone(otherProgramFlags), docsOtherFlags...) {
		known[f] = true
	}
	commands := map[string]bool{}
	for _, c := range app.Commands {
		commands[c.Name] = true
	}
	lines, tables, names := 0, 0, 0
	for _, p := range docPages(t) {
		page := strings.TrimSuffix(filepath.Base(p.path), ".md")
		isCommandPage := strings.HasPrefix(p.path, "docs/commands/") && commands[page]
		inSh := false
		for i, l := range p.lines {
			where := fmt.Sprintf("%s:%d", p.path, i+1)
			if strings.HasPrefix(l, "```") {
				inSh = !inSh && strings.TrimPrefix(l, "```") == "sh"
				continue
			}
			for _, m := range suggested.FindAllStringSubmatch(l, -1) {
				names++
				if !known[m[1]] {
					t.Errorf("%s: --%s is a flag of no rdbgen command", where, m[1])
				}
			}
			var cmdLines []string
			if inSh {
				cmdLines = append(cmdLines, l)
			}
			for _, span := range mdCodeSpan.FindAllString(l, -1) {
				cmdLines = append(cmdLines, strings.Trim(span, "`"))
			}
			for _, c := range cmdLines {
				cmd, flags, ok := rdbgenCommandLine(c, commands)
				if !ok {
					continue
				}
				lines++
				path := strings.Fields(cmd)
				own := commandFlagNames(path...)
				own["version"] = cmd == ""
				for _, f := range flags {
					if !own[f] {
						t.Errorf("%s: %q: rdbgen %s takes no --%s", where, c, cmd, f)
					}
				}
			}
			if isCommandPage && strings.HasPrefix(l, "| `-") {
				tables++
				cell, _, _ := strings.Cut(strings.TrimPrefix(l, "| "), " |")
				own := commandFlagNames(commandPath(page)...)
				for _, m := range suggested.FindAllStringSubmatch(cell, -1) {
					if !own[m[1]] {
						t.Errorf("%s: the flag table of %s lists --%s, which %s does not take", where, page, m[1], page)
					}
				}
			}
		}
	}
	if lines == 0 || tables == 0 || names == 0 {
		t.Fatalf("found %d command lines, %d flag table rows, %d flags: the docs' parser is broken", lines, tables, names)
	}
}

// commandPath is the command a page of docs/commands documents: generate is the root's
// flags, spec is spec check.
func commandPath(page string) []string {
	switch page {
	case "generate":
		return nil
	case "spec":
		return []string{"spec", "check"}
	}
	return []string{page}
}

// rdbgenCommandLine reads a command line of the docs: "rdbgen [COMMAND [SUB]] args…" (also
// "./rdbgen", "go run ./cmd/rdbgen", after an environment assignment), up to a pipe, && or
// a comment. It returns the command ("" for the root) and the flags given.
func rdbgenCommandLine(line string, commands map[string]bool) (cmd string, flags []string, ok bool) {
	for _, sep := range []string{" #", "|", "&&", ";", "<", ">"} {
		line, _, _ = strings.Cut(line, sep)
	}
	f := strings.Fields(line)
	for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
		f = f[1:] // VAR=value
	}
	switch {
	case len(f) > 0 && (f[0] == "rdbgen" || f[0] == "./rdbgen"):
		f = f[1:]
	case len(f) > 2 && f[0] == "go" && f[1] == "run" && f[2] == "./cmd/rdbgen":
		f = f[3:]
	default:
		return "", nil, false
	}
	var path []string
	if len(f) > 0 && commands[f[0]] && f[0] != "generate" {
		path = append(path, f[0])
		if f[0] == "spec" && len(f) > 1 && !strings.HasPrefix(f[1], "-") {
			path = append(path, f[1])
		}
	}
	for _, w := range f {
		if w == "--" {
			break // the rest is another program's (image's server arguments)
		}
		if m := suggested.FindStringSubmatch(w); m != nil && strings.HasPrefix(w, "--") {
			flags = append(flags, m[1])
		}
	}
	return strings.Join(path, " "), flags, true
}

// TestDocsNameRealTests: a test, fuzz or example function the docs cite as evidence
// (TestConformance, FuzzReader, …) exists in the module's tests, but those the docs' own Go
// snippets declare.
func TestDocsNameRealTests(t *testing.T) {
	name := regexp.MustCompile(`\b(?:Test|Fuzz|Example)[A-Z][A-Za-z0-9_]*`)
	declared := regexp.MustCompile(`func ((?:Test|Fuzz|Example)[A-Z][A-Za-z0-9_]*)\(`)
	exists := map[string]bool{}
	err := filepath.WalkDir(docsRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != docsRoot {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range declared.FindAllStringSubmatch(string(b), -1) {
			exists[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cited := 0
	for _, p := range docPages(t) {
		for _, s := range p.blocks() {
			if s.lang == "go" {
				for _, m := range declared.FindAllStringSubmatch(s.text, -1) {
					exists[m[1]] = true
				}
			}
		}
		for i, l := range p.prose() {
			for _, n := range name.FindAllString(l, -1) {
				cited++
				if !exists[n] {
					t.Errorf("%s:%d: %s is no test of the module", p.path, i+1, n)
				}
			}
		}
	}
	if cited == 0 {
		t.Fatal("no test cited in the docs: the parser is broken")
	}
}
