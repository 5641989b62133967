package cliflags

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// app returns an app whose command "cp" records its arguments and --out, and rejects empty
// string values but --prefix's.
func app(args *[]string, out *string) *cli.App {
	a := &cli.App{Name: "t", Writer: io.Discard, ErrWriter: io.Discard,
		OnUsageError:   func(c *cli.Context, err error, _ bool) error { return ValueError(c, err) },
		ExitErrHandler: func(*cli.Context, error) {},
		Commands: []*cli.Command{{
			Name: "cp",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "out", Aliases: []string{"o"}},
				&cli.StringFlag{Name: "prefix"},
				&cli.BoolFlag{Name: "force"},
				&cli.IntFlag{Name: "n"},
			},
			Action: func(c *cli.Context) error { *args, *out = c.Args().Slice(), c.String("out"); return nil },
		}},
	}
	for _, c := range a.Commands {
		c.OnUsageError = a.OnUsageError
	}
	RefuseEmpty(a, map[string]string{"prefix": "no prefix"})
	return a
}

func TestRun(t *testing.T) {
	tests := []struct {
		args     []string
		wantArgs []string
		wantOut  string
		err      string
	}{
		{args: []string{"cp", "a", "-o", "x", "b"}, wantArgs: []string{"a", "b"}, wantOut: "x"},
		{args: []string{"cp", "a", "--force", "b", "--out=y"}, wantArgs: []string{"a", "b"}, wantOut: "y"},
		{args: []string{"cp", "-", "--", "-o", "z"}, wantArgs: []string{"-", "-o", "z"}},
		{args: []string{"cp", "a", "--prefix", ""}, wantArgs: []string{"a"}},
		{args: []string{"cp", "a", "-o"}, err: "flag needs an argument: -o"},
		{args: []string{"cp", "--out", ""}, err: `--out "": an empty value is not allowed: give one, or leave the flag out`},
		{args: []string{"cp", "--n", "x"}, err: `--n "x": want a whole number`},
	}
	for _, tt := range tests {
		var args []string
		var out string
		err := Run(context.Background(), app(&args, &out), append([]string{"t"}, tt.args...))
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: error %v, want %s", tt.args, err, tt.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.args, err)
		case !slices.Equal(args, tt.wantArgs) || out != tt.wantOut:
			t.Errorf("%q: args %q out %q, want %q %q", tt.args, args, out, tt.wantArgs, tt.wantOut)
		}
	}
}

// TestLimit: 0 is -1 (none), a negative value an error naming the flag.
func TestLimit(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want int
		err  string
	}{{"5", 5, ""}, {"0", -1, ""}, {"-2", 0, "--top -2: want 0 or more"}} {
		var got int
		var err error
		a := &cli.App{Name: "t", Flags: []cli.Flag{&cli.IntFlag{Name: "top", Value: 10}},
			Action: func(c *cli.Context) error { got, err = Limit(c, "top"); return nil }}
		if runErr := a.Run([]string{"t", "--top", tc.arg}); runErr != nil {
			t.Fatal(runErr)
		}
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("--top %s: %d, %v; want %d, %q", tc.arg, got, err, tc.want, tc.err)
		}
	}
}

// TestHelpAnywhere: -h or --help among a command's arguments shows its help, whatever the
// arguments around it ("diff -h a b" looked for a help topic "a"); a flag's value "-h" and an
// argument after "--" are not a request for help.
func TestHelpAnywhere(t *testing.T) {
	cmds := []*cli.Command{{Name: "diff", Flags: []cli.Flag{&cli.StringFlag{Name: "match"}, &cli.BoolFlag{Name: "json"}}}}
	for _, tt := range []struct {
		args, want []string
	}{
		{[]string{"rdbgen", "diff", "-h", "a", "b"}, []string{"rdbgen", "diff", "--help"}},
		{[]string{"rdbgen", "diff", "a", "--json", "--help", "b"}, []string{"rdbgen", "diff", "--help"}},
		{[]string{"rdbgen", "diff", "a", "--match", "-h"}, []string{"rdbgen", "diff", "--match", "-h", "--", "a"}},
		{[]string{"rdbgen", "diff", "a", "--", "-h"}, []string{"rdbgen", "diff", "--", "a", "-h"}},
	} {
		got, err := intersperse(cmds, tt.args)
		if err != nil || strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%q: %q, %v; want %q", tt.args, got, err, tt.want)
		}
	}
}
