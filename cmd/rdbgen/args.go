package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// runApp runs app on args, letting flags follow a command's arguments
// (rdbgen import data.jsonl -o dump.rdb), which urfave/cli v2 does not parse by itself.
func runApp(ctx context.Context, app *cli.App, args []string) error {
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
