package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/internal/redistest"
	"github.com/rdbgen/rdbgen/rdb"
)

// TestCompletionBash sources `rdbgen completion bash` in bash, as a user's shell does, and
// calls the completion function it registers for words typed so far: a command, a flag, a
// flag's values.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is missing: it runs the completion script")
	}
	bin := goBuild(t, filepath.Join(t.TempDir(), "rdbgen"), nil)
	var redis7 []string
	for _, name := range rdb.TargetNames() {
		if strings.HasPrefix(name, "redis-7.") {
			redis7 = append(redis7, name)
		}
	}
	tests := []struct {
		name  string
		words []string // COMP_WORDS: the last is the word being completed
		want  []string
	}{
		{"a command", []string{"rdbgen", "conv"}, []string{"convert"}},
		{"a flag", []string{"rdbgen", "convert", "dump.rdb", "--tar"}, []string{"--target"}},
		{"a target", []string{"rdbgen", "convert", "dump.rdb", "--target", "redis-7."}, redis7},
		{"a method", []string{"rdbgen", "load", "--method", "re"}, []string{"restore"}},
		{"export's formats", []string{"rdbgen", "export", "--format", ""}, []string{"json", "jsonl", "csv"}},
		{"generate's formats, at the top", []string{"rdbgen", "--format", ""}, []string{"rdb", "resp"}},
		{"flags of the top", []string{"rdbgen", "--cou"}, []string{"--count", "--count-scale"}},
		{"a file: left to the shell", []string{"rdbgen", "-o", ""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := `source <(rdbgen completion bash) || exit 2
complete -p rdbgen >/dev/null || exit 3
COMP_WORDS=("$@")
COMP_CWORD=$(( $# - 1 ))
_rdbgen_complete
printf '%s\n' "${COMPREPLY[@]}"
`
			cmd := exec.Command(bash, append([]string{"-c", script, "bash"}, tt.words...)...)
			cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v\n%s", err, out)
			}
			got := strings.Fields(string(out))
			if !slices.Equal(got, tt.want) {
				t.Errorf("completing %q: got %q, want %q", tt.words, got, tt.want)
			}
		})
	}
}

// TestCompletionFish sources `rdbgen completion fish` in fish and asks fish what it completes
// (complete -C): rdbgen's words where it has some, file names where it has none.
func TestCompletionFish(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		redistest.Missing(t, "fish is missing (apt-get install fish): it runs the completion script")
	}
	bin := goBuild(t, filepath.Join(t.TempDir(), "rdbgen"), nil)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "dump.rdb"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line string
		want []string
	}{
		{"rdbgen conv", []string{"convert"}},
		{"rdbgen convert dump.rdb --tar", []string{"--target"}},
		{"rdbgen load --method ", []string{"auto", "mass", "parallel", "pipeline", "restore", "sequential"}},
		{"rdbgen inspect du", []string{"dump.rdb"}},
	}
	for _, tt := range tests {
		cmd := exec.Command(fish, "--no-config", "-c", "rdbgen completion fish | source; complete -C '"+tt.line+"'")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		if got := strings.Fields(string(out)); !slices.Equal(got, tt.want) {
			t.Errorf("completing %q: got %q, want %q", tt.line, got, tt.want)
		}
	}
}

// TestCompletionZshSyntax: zsh parses its script (driving zsh's completion needs a terminal).
func TestCompletionZshSyntax(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		redistest.Missing(t, "zsh is missing (apt-get install zsh): it checks the completion script")
	}
	cmd := exec.Command(zsh, "-n")
	cmd.Stdin = strings.NewReader(completionScripts["zsh"])
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s", err, out)
	}
}

// TestCompletionCommand: each shell's script, and a one-line error naming the shells for
// anything else.
func TestCompletionCommand(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		out, _, err := run(t, context.Background(), "completion", shell)
		if err != nil || !strings.Contains(out, "--generate-bash-completion") || !strings.Contains(out, "rdbgen") {
			t.Errorf("completion %s: %v\n%s", shell, err, out)
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		_, _, err := run(t, context.Background(), args...)
		if err == nil || !strings.Contains(err.Error(), "bash, zsh or fish") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v", args, err)
		}
	}
}

// TestCompletionValuesNameFlags: every flag completion offers values for is a flag of some
// command, so that a renamed flag does not leave its values behind.
func TestCompletionValuesNameFlags(t *testing.T) {
	app := newApp(nil, nil)
	flags := map[string]bool{}
	for _, c := range append(app.Commands, generateCommand()) {
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				flags[n] = true
			}
		}
	}
	for name, values := range flagValues("") {
		if !flags[name] || len(values) == 0 {
			t.Errorf("completion offers %q for --%s, which no command has", values, name)
		}
	}
}
