// Package cliflags is what rdbgen adds to urfave/cli v2's parsing: flags after a command's
// arguments, empty values refused, and one-line errors for values a flag cannot parse.
package cliflags

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Run runs app on args, letting flags follow a command's arguments
// (rdbgen import data.jsonl -o dump.rdb), which urfave/cli v2 does not parse by itself. A
// completion request (args ending with CompletionFlag) goes to app as typed; after a "--",
// where only arguments follow, it prints nothing: urfave/cli would run the command instead.
func Run(ctx context.Context, app *cli.App, args []string) error {
	if n := len(args); n > 0 && args[n-1] == CompletionFlag {
		if slices.Contains(args, "--") {
			return nil
		}
		return app.RunContext(ctx, args)
	}
	args, err := intersperse(app.Commands, args)
	if err != nil {
		return err
	}
	return app.RunContext(ctx, args)
}

// intersperse moves the arguments of the (sub)command that args name behind its flags and a
// "--", so that flags written after an argument are parsed as flags. Arguments after a "--"
// stay arguments. A flag that takes a value but ends the line is an error: moved, it would
// take the "--" as its value.
func intersperse(cmds []*cli.Command, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	out := []string{args[0]}
	rest := args[1:]
	var cmd *cli.Command
	// Walk down the command names: rdbgen spec check ...
	for len(rest) > 0 {
		next := findCommand(cmds, rest[0])
		if next == nil {
			break
		}
		cmd, cmds = next, next.Subcommands
		out = append(out, rest[0])
		rest = rest[1:]
	}
	if cmd == nil || len(cmd.Subcommands) > 0 || cmd.SkipFlagParsing {
		return args, nil
	}
	if askedHelp(cmd, rest) {
		// rdbgen diff -h a b: the help, not "No help topic for 'a'".
		return append(out, "--help"), nil
	}
	var flags, positional []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			positional = append(positional, rest[i+1:]...)
			i = len(rest)
		case a == "-" || !strings.HasPrefix(a, "-"):
			positional = append(positional, a)
		default:
			flags = append(flags, a)
			if !strings.Contains(a, "=") && takesValue(cmd, strings.TrimLeft(a, "-")) {
				if i+1 == len(rest) {
					return nil, fmt.Errorf("flag needs an argument: %s", a)
				}
				i++
				flags = append(flags, rest[i])
			}
		}
	}
	out = append(out, flags...)
	if len(positional) > 0 {
		out = append(append(out, "--"), positional...)
	}
	return out, nil
}

// askedHelp reports whether args, cmd's flags and arguments, ask for its help (-h, --help)
// before any "--"; a flag's value ("--match -h") does not.
func askedHelp(cmd *cli.Command, args []string) bool {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return false
		case a == "-h" || a == "--help" || a == "-help":
			return true
		case strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && takesValue(cmd, strings.TrimLeft(a, "-")):
			i++ // its value
		}
	}
	return false
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether the flag named name of cmd takes a value (all but booleans).
func takesValue(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}

// refuseEmpty refuses a string flag given an empty value (--match "", --type "", --type
// "hash,"), which would otherwise take another meaning (every key, strings only) or the
// default silently; the flags of allow aside.
func refuseEmpty(c *cli.Context, allow map[string]string) error {
	for _, f := range commandFlags(c) {
		name := f.Names()[0]
		if _, ok := allow[name]; ok || !c.IsSet(name) {
			continue
		}
		empty := false
		switch f.(type) {
		case *cli.StringFlag, *cli.PathFlag:
			empty = c.String(name) == ""
		case *cli.StringSliceFlag:
			vals := c.StringSlice(name)
			empty = len(vals) == 0
			for _, v := range vals {
				for _, s := range strings.Split(v, ",") {
					empty = empty || strings.TrimSpace(s) == ""
				}
			}
		}
		if empty {
			return fmt.Errorf("--%s %q: an empty value is not allowed: give one, or leave the flag out", name, strings.Join(c.StringSlice(name), ","))
		}
	}
	return nil
}

// commandFlags returns the flags of the command c runs (the app's own for generate's
// default action).
func commandFlags(c *cli.Context) []cli.Flag {
	if c.Command != nil && len(c.Command.Flags) > 0 {
		return c.Command.Flags
	}
	return c.App.Flags
}

// RefuseEmpty makes every command of app, at any depth, and the app refuse a string flag
// given an empty value, but the flags allow names (with what their empty value means).
func RefuseEmpty(app *cli.App, allow map[string]string) {
	refuseEmpty := func(c *cli.Context) error { return refuseEmpty(c, allow) }
	app.Before = chainBefore(refuseEmpty, app.Before)
	eachCommand(app.Commands, func(c *cli.Command) { c.Before = chainBefore(refuseEmpty, c.Before) })
}

// eachCommand calls f with every command of cmds, at any depth.
func eachCommand(cmds []*cli.Command, f func(*cli.Command)) {
	for _, c := range cmds {
		f(c)
		eachCommand(c.Subcommands, f)
	}
}

func chainBefore(first, then cli.BeforeFunc) cli.BeforeFunc {
	if then == nil {
		return first
	}
	return func(c *cli.Context) error {
		if err := first(c); err != nil {
			return err
		}
		return then(c)
	}
}

// OneLineErrors makes app, and every command of it at any depth, return a flag's usage
// error as one line (ValueError) for main to print, instead of the whole help text that
// urfave/cli prints by default; and leaves exiting to main.
func OneLineErrors(app *cli.App) {
	usageError := func(c *cli.Context, err error, _ bool) error { return ValueError(c, err) }
	app.OnUsageError = usageError
	app.ExitErrHandler = func(*cli.Context, error) {}
	eachCommand(app.Commands, func(c *cli.Command) {
		if c.OnUsageError == nil {
			c.OnUsageError = usageError
		}
	})
}

// Limit returns the value of the int flag name, a number of things listed: -1, none, for
// 0; a negative value is an error.
func Limit(c *cli.Context, name string) (int, error) {
	switch n := c.Int(name); {
	case n < 0:
		return 0, fmt.Errorf("--%s %d: want 0 or more", name, n)
	case n == 0:
		return -1, nil
	default:
		return n, nil
	}
}

// badValue is urfave/cli's error for a value a number flag cannot parse, or the flag
// package's for a boolean's.
var badValue = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([\w-]+): `)

// ValueError rewrites a flag value's parse error (`invalid value "" for flag -db:
// strconv.ParseInt: parsing "": invalid syntax`) as one line naming the flag, the value and
// what it takes; other errors come back as they are.
func ValueError(c *cli.Context, err error) error {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		return fmt.Errorf("--%s: no such flag for %s (see %s -h)", strings.TrimLeft(name, "-"), commandName(c), commandName(c))
	}
	m := badValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	want := "a valid value"
	var flags []cli.Flag
	if c != nil {
		flags = commandFlags(c)
	}
	for _, f := range flags {
		if !hasName(f, m[2]) {
			continue
		}
		switch f.(type) {
		case *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.Uint64SliceFlag, *cli.UintSliceFlag:
			want = "whole numbers, separated by commas"
		case *cli.IntFlag, *cli.Int64Flag:
			want = "a whole number"
		case *cli.UintFlag, *cli.Uint64Flag:
			want = "a whole number, 0 or more"
		case *cli.Float64Flag, *cli.Float64SliceFlag:
			want = "a number"
		case *cli.DurationFlag:
			want = "a duration (90s, 5m, 1h)"
		case *cli.BoolFlag:
			want = "true or false"
		}
	}
	return fmt.Errorf("--%s %q: want %s", m[2], m[1], want)
}

// commandName names the command c runs, "rdbgen diff", for messages.
func commandName(c *cli.Context) string {
	name := "rdbgen"
	if c == nil {
		return name
	}
	for _, l := range c.Lineage() {
		if l.Command != nil && l.Command.Name != "" && (l.App == nil || l.Command.Name != l.App.Name) {
			name = strings.Replace(name, "rdbgen", "rdbgen "+l.Command.Name, 1)
		}
	}
	return name
}

func hasName(f cli.Flag, name string) bool {
	for _, n := range f.Names() {
		if n == name {
			return true
		}
	}
	return false
}
