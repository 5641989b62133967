package cliflags

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestSuggest(t *testing.T) {
	cmd := &cli.Command{
		Name: "load",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "method"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}},
			&cli.StringFlag{Name: "target", Aliases: []string{"t"}},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}},
			&cli.BoolFlag{Name: "secret", Hidden: true},
		},
		Subcommands: []*cli.Command{{Name: "check", Aliases: []string{"c"}}, {Name: "old", Hidden: true}, {Name: "help"}},
	}
	values := map[string][]string{"method": {"mass", "restore"}, "target": {"redis-7.0", "valkey-8.0"}}
	tests := []struct {
		name  string
		typed []string // the words after the program's name
		want  []string
	}{
		{"nothing typed", nil, []string{"check", "c"}},
		{"after an argument", []string{"dump.rdb"}, []string{"check", "c"}},
		{"a flag's values", []string{"--method"}, []string{"mass", "restore"}},
		{"by an alias", []string{"-t"}, []string{"redis-7.0", "valkey-8.0"}},
		{"values after an argument", []string{"dump.rdb", "--target"}, []string{"redis-7.0", "valkey-8.0"}},
		{"a value flag of no values: files", []string{"-o"}, nil},
		{"after a switch", []string{"--quiet"}, []string{"check", "c"}},
		{"a partial flag", []string{"--me"}, []string{"--method"}},
		{"every flag after a dash, short ones too", []string{"-"}, []string{"--method", "--output", "-o", "--target", "-t", "--quiet", "-q"}},
		{"two dashes: long names only", []string{"--"}, []string{"--method", "--output", "--target", "--quiet"}},
		{"a hidden flag", []string{"--sec"}, nil},
		{"an unknown flag", []string{"--zzz"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"rdbgen"}, tt.typed...), CompletionFlag)
			if got := Suggest(args, cmd, values); !slices.Equal(got, tt.want) {
				t.Errorf("Suggest(%q) = %q, want %q", args, got, tt.want)
			}
		})
	}
}

// TestRunCompletion: a completion request reaches the command as typed, flags after its
// arguments included (Run does not move them), and the command does not run.
func TestRunCompletion(t *testing.T) {
	var args []string
	var out string
	a := app(&args, &out)
	a.EnableBashCompletion = true
	var buf bytes.Buffer
	a.Writer = &buf
	for _, c := range a.Commands {
		c.BashComplete = Complete(map[string][]string{"out": {"a.rdb", "b.rdb"}})
	}
	saved := os.Args
	defer func() { os.Args = saved }()
	tests := []struct {
		typed []string
		want  []string
	}{
		{[]string{"cp", "in.rdb", "--out"}, []string{"a.rdb", "b.rdb"}},
		{[]string{"cp", "--", "in.rdb"}, nil}, // urfave/cli would run cp on in.rdb and the flag
	}
	for _, tt := range tests {
		buf.Reset()
		os.Args = append(append([]string{"t"}, tt.typed...), CompletionFlag)
		if err := Run(context.Background(), a, os.Args); err != nil {
			t.Fatal(err)
		}
		if got := strings.Fields(buf.String()); !slices.Equal(got, tt.want) || args != nil {
			t.Fatalf("%q: printed %q, ran with %q", tt.typed, got, args)
		}
	}
}
