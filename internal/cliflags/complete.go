package cliflags

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
)

// CompletionFlag is the flag the shell completion scripts append to the words typed so far:
// the command then prints the words that may come next, one a line, instead of running
// (urfave/cli's protocol, App.EnableBashCompletion).
const CompletionFlag = "--generate-bash-completion"

// Complete returns a cli.BashCompleteFunc that prints what may follow the words typed so far
// (os.Args, which end with CompletionFlag) on the command it completes: values[name] after
// a flag of that name, nothing after another flag that takes a value (the shell then offers
// files), the names of the command's flags after a dash and what follows it, else its
// subcommands.
func Complete(values map[string][]string) cli.BashCompleteFunc {
	return func(c *cli.Context) {
		for _, s := range Suggest(os.Args, c.Command, values) {
			fmt.Fprintln(c.App.Writer, s)
		}
	}
}

// Suggest returns what Complete prints for the command line args (program name first,
// CompletionFlag last) on command cmd.
func Suggest(args []string, cmd *cli.Command, values map[string][]string) []string {
	var last string // the word before CompletionFlag: the flag or partial flag typed last
	if n := len(args); n > 2 {
		last = args[n-2]
	}
	if !strings.HasPrefix(last, "-") {
		return commandNames(cmd.Subcommands)
	}
	typed := strings.TrimLeft(last, "-")
	if f := findFlag(cmd.Flags, typed); f != nil {
		if !takesValue(cmd, typed) {
			return commandNames(cmd.Subcommands)
		}
		for _, name := range f.Names() {
			if vs, ok := values[name]; ok {
				return vs
			}
		}
		return nil
	}
	var out []string
	for _, f := range cmd.Flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		for _, name := range f.Names() {
			if strings.HasPrefix(name, typed) && (len(name) > 1 || !strings.HasPrefix(last, "--")) {
				out = append(out, dashed(name))
			}
		}
	}
	return out
}

// findFlag returns the flag of flags that has the name, or nil.
func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// dashed returns a flag's name as typed: -o, --output.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// commandNames returns the names and aliases of the visible commands, but for the help
// command urfave/cli adds (the --help flag does the same).
func commandNames(cmds []*cli.Command) []string {
	var out []string
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			out = append(out, c.Names()...)
		}
	}
	return out
}
