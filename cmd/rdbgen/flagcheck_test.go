package main

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/redistest"
)

// TestEmptyValuesRefused: an empty value is an error naming the flag, never another meaning
// (--match "" kept every key, --type "" strings only); a number flag's bad value is one line
// naming the flag and the value, not strconv's words (issue 22, items 10 and 24).
func TestEmptyValuesRefused(t *testing.T) {
	dump := generateWith(t, "--count", "3")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", dump, "--match", ""}, `--match "": an empty value is not allowed: give one, or leave the flag out`},
		{[]string{"convert", dump, "--match="}, `--match "": an empty value is not allowed`},
		{[]string{"convert", dump, "--type", ""}, `--type "": an empty value is not allowed`},
		{[]string{"convert", dump, "--type", "hash,"}, `--type "hash,": an empty value is not allowed`},
		{[]string{"convert", dump, "--type", "hash", "--type", ""}, `--type "hash,": an empty value is not allowed`},
		{[]string{"convert", dump, "--rebase-to", ""}, `--rebase-to "": an empty value is not allowed`},
		{[]string{"convert", dump, "--manifest", ""}, `--manifest "": an empty value is not allowed`},
		{[]string{"convert", dump, "--target", ""}, `--target "": an empty value is not allowed`},
		{[]string{"convert", dump, "--rewrite", ""}, `--rewrite "": an empty value is not allowed`},
		{[]string{"import", dump, "--csv-type", ""}, `--csv-type "": an empty value is not allowed`},
		{[]string{"import", dump, "--on-duplicate", ""}, `--on-duplicate "": an empty value is not allowed`},
		{[]string{"inspect", dump, "--target", ""}, `--target "": an empty value is not allowed`},
		{[]string{"verify", dump, "--manifest", ""}, `--manifest "": an empty value is not allowed`},
		{[]string{"load", dump, "--addr", ""}, `--addr "": an empty value is not allowed`},
		{[]string{"--count", "1", "--type", ""}, `--type "": an empty value is not allowed`},
		{[]string{"--count", "1", "--base-time", ""}, `--base-time "": an empty value is not allowed`},
		{[]string{"convert", dump, "--db="}, `--db "": want whole numbers, separated by commas`},
		{[]string{"convert", dump, "--db", "1,,2"}, `--db "1,,2": want whole numbers, separated by commas`},
		{[]string{"convert", dump, "--sample", "half"}, `--sample "half": want a number`},
		{[]string{"--count", "ten"}, `--count "ten": want a whole number, 0 or more`},
	} {
		t.Run(filepath.Base(tt.args[0])+" "+tt.want, func(t *testing.T) { checkBadInput(t, tt.args, tt.want) })
	}
	// An empty key prefix is a prefix like any other: keys named by their number alone.
	out := filepath.Join(t.TempDir(), "d.rdb")
	if _, _, err := run(t, context.Background(), "--count", "2", "--key-prefix", "", "-o", out, "-q"); err != nil {
		t.Fatalf("--key-prefix '': %v", err)
	}
}

// suggested are the flags a message names: --name.
var suggested = regexp.MustCompile(`--([a-z][a-z0-9-]*)`)

// commandFlagNames returns the names (and aliases) of the flags of the command at path
// (rdbgen spec check: "spec", "check"; the root: none).
func commandFlagNames(path ...string) map[string]bool {
	app := newApp(io.Discard, io.Discard)
	flags, cmds := app.Flags, app.Commands
	for _, name := range path {
		for _, c := range cmds {
			if c.Name == name {
				flags, cmds = c.Flags, c.Subcommands
			}
		}
	}
	names := map[string]bool{"help": true}
	for _, f := range flags {
		for _, n := range f.Names() {
			names[n] = true
		}
	}
	return names
}

// TestErrorsSuggestTheirCommandsFlags runs each command that reads or writes dumps into the
// errors of the policy flags (issue 34, item 17): a library or field TTL the target cannot
// hold, module AUX data that commands cannot carry, a key twice, in a dump, a gzipped dump,
// a JSON export; every flag the one-line error names is a flag of the command that printed
// it, and the policy flag it offers as the way out is one: run again with it, the command
// succeeds.
func TestErrorsSuggestTheirCommandsFlags(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	functions := redistest.WriteFunctionDump(t, true)
	fieldTTL := fieldTTLDump(t)
	modules := moduleDump(t)
	exported := 0
	export := func(dump string) string {
		exported++
		out := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", filepath.Base(dump), exported))
		if _, stderr, err := run(t, ctx, "export", dump, "--format", "jsonl", "-o", out); err != nil {
			t.Fatalf("export %s: %v\n%s", dump, err, stderr)
		}
		return out
	}
	gzipped := filepath.Join(dir, "functions.rdb.gz")
	b, err := os.ReadFile(functions)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gzipped, gz(t, string(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	dupJSON := filepath.Join(dir, "dup.jsonl")
	if err := os.WriteFile(dupJSON, []byte(`{"key":"k","type":"string","value":"1"}`+"\n"+`{"key":"k","type":"string","value":"2"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tt := range []struct {
		args []string
		way  string // the policy flag that is the way out
	}{
		{[]string{"convert", functions, "--target", "redis-6.2"}, "drop-functions"},
		{[]string{"import", functions, "--target", "redis-6.2"}, "drop-functions"},
		{[]string{"import", export(functions), "--target", "redis-6.2"}, "drop-functions"},
		{[]string{"merge", functions, "--target", "redis-6.2"}, "drop-functions"},
		{[]string{"merge", gzipped, "--target", "redis-6.2"}, "drop-functions"},
		{[]string{"merge", functions, "--target", "redis-7.0", "--format", "resp", "--replace-functions", "--target", "redis-6.2"}, "drop-functions"},
		{[]string{"convert", fieldTTL, "--target", "redis-7.2"}, "drop-field-ttl"},
		{[]string{"convert", fieldTTL, "--target", "redis-7.2"}, "skip-unsupported"},
		{[]string{"import", fieldTTL, "--target", "redis-7.2"}, "skip-unsupported"},
		{[]string{"import", export(fieldTTL), "--target", "redis-7.2"}, "drop-field-ttl"},
		{[]string{"import", export(fieldTTL), "--target", "redis-7.2"}, "skip-unsupported"},
		{[]string{"merge", fieldTTL, "--target", "redis-7.2"}, "drop-field-ttl"},
		{[]string{"merge", fieldTTL, "--target", "redis-7.2"}, "skip-unsupported"},
		{[]string{"convert", modules, "--target", "redis-7.0", "--format", "resp"}, "drop-module-aux"},
		{[]string{"merge", modules, "--target", "redis-7.0", "--format", "resp"}, "drop-module-aux"},
		{[]string{"import", dupJSON}, "on-duplicate"},
		{[]string{"merge", functions, functions, "--target", "redis-7.0"}, "on-duplicate"},
	} {
		n++
		out := filepath.Join(dir, fmt.Sprintf("out-%d", n))
		args := append(slices.Clone(tt.args), "-o", out, "-q")
		_, _, err := run(t, ctx, args...)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v; want a one-line error", args, err)
			continue
		}
		flags := commandFlagNames(args[0])
		for _, m := range suggested.FindAllStringSubmatch(err.Error(), -1) {
			if !flags[m[1]] {
				t.Errorf("%s's error names --%s, which %s does not take: %v", args[0], m[1], args[0], err)
			}
		}
		if !strings.Contains(err.Error(), "--"+tt.way) {
			t.Errorf("%q: %v; want the way out --%s", args, err, tt.way)
			continue
		}
		way := "--" + tt.way
		if tt.way == "on-duplicate" {
			way += "=first"
		}
		if _, stderr, err := run(t, ctx, append(args, way, "-f")...); err != nil {
			t.Errorf("%q with %s: %v\n%s", args, way, err, stderr)
		}
	}
}

// anyCommandFlags returns the names (and aliases) of the flags of every command of app and
// its subcommands.
func anyCommandFlags(app *cli.App) map[string]bool {
	known := map[string]bool{}
	var walk func(flags []cli.Flag, cmds []*cli.Command)
	walk = func(flags []cli.Flag, cmds []*cli.Command) {
		for _, f := range flags {
			for _, n := range f.Names() {
				known[n] = true
			}
		}
		for _, c := range cmds {
			walk(c.Flags, c.Subcommands)
		}
	}
	walk(app.Flags, app.Commands)
	return known
}

// otherProgramFlags are the flags of other programs that messages, usage texts and the docs
// quote: redis-server's, redis-cli's, docker's, minio's, and urfave/cli's hidden completion
// request.
var otherProgramFlags = []string{"help", "pipe", "rdb", "loadmodule", "save", "appendonly", "port", "dir", "dbfilename",
	"enable-debug-command", "cluster-enabled", "cluster-config-file", "cluster-replicas", "bind", "daemonize",
	"requirepass", "user", "pass", "tls", "cacert", "cert", "key", "no-auth-warning", "rm", "name", "network",
	"mount", "volume", "publish", "entrypoint", "tag", "file", "build-arg", "platform", "protected-mode",
	"maxmemory", "repl-diskless-sync", "repl-diskless-sync-delay", "proto-max-bulk-len", "functions-rdb",
	"bigkeys", "memkeys", "scan", "pattern", "cluster", "latency", "iidfile", "chown", "library-path", "cluster-port",
	"detach", "restart", "label", "logfile", "databases", "volumes", "since", "address", "console-address",
	"generate-bash-completion"}

// TestMessagesNameRealFlags reads every message of the program's sources (string literals
// of the non-test Go files) and checks that each flag it names, --name, is a flag of some
// rdbgen command, but the flags of other programs the messages quote; and that a message of
// a command's own file (cmd/rdbgen/merge.go) names that command's flags, unless it quotes
// another command's.
func TestMessagesNameRealFlags(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	known := anyCommandFlags(app)
	for _, f := range otherProgramFlags {
		known[f] = true
	}
	ownFile := map[string]bool{}
	for _, c := range app.Commands {
		ownFile[c.Name] = true
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range suggested.FindAllStringSubmatchIndex(s, -1) {
				name := s[m[2]:m[3]]
				if m[0] > 0 && s[m[0]-1] != ' ' && s[m[0]-1] != '(' && s[m[0]-1] != '`' && s[m[0]-1] != '"' && s[m[0]-1] != '\'' && s[m[0]-1] != '\n' {
					continue // not a flag: "a--b"
				}
				if !known[name] {
					t.Errorf("%s: the message %q names --%s, a flag no rdbgen command takes", fset.Position(lit.Pos()), s, name)
				}
				// A command's own file (cmd/rdbgen/merge.go) names its command's flags.
				// (Not a flag quoted after another command's name, "convert --rebase-expiry", or
				// after "--", another program's.)
				before := strings.Fields(s[:m[0]])
				after := ""
				if len(before) > 0 {
					after = strings.Trim(before[len(before)-1], "(`'\"")
				}
				if cmd := strings.TrimSuffix(filepath.Base(path), ".go"); filepath.Base(filepath.Dir(path)) == "rdbgen" && ownFile[cmd] &&
					after != "--" && !(ownFile[after] && after != cmd) && !commandFlagNames(cmd)[name] {
					t.Errorf("%s: the message %q of %s names --%s, which %s does not take", fset.Position(lit.Pos()), s, cmd, name, cmd)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
