package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// commandArgs returns the positional arguments of a command, and those after "--".
//
// urfave/cli v2 stops reading flags at the first positional argument, so in
// "rdbgen image dump.rdb -t tag" it leaves "-t tag" among the arguments: commandArgs sets
// such flags on c, as if they had come first.
func commandArgs(c *cli.Context) (args, rest []string, err error) {
	in := c.Args().Slice()
	for i := 0; i < len(in); i++ {
		a := in[i]
		if a == "--" {
			return args, in[i+1:], nil
		}
		if len(a) < 2 || a[0] != '-' {
			args = append(args, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := findFlag(c.Command.Flags, name)
		if f == nil {
			return nil, nil, fmt.Errorf("flag provided but not defined: %s", a)
		}
		if _, isBool := f.(*cli.BoolFlag); isBool && !hasValue {
			value = "true"
		} else if !hasValue {
			if i+1 == len(in) {
				return nil, nil, fmt.Errorf("flag needs an argument: %s", a)
			}
			i++
			value = in[i]
		}
		if err := c.Set(f.Names()[0], value); err != nil {
			return nil, nil, fmt.Errorf("invalid value %q for flag %s: %v", value, a, err)
		}
	}
	return args, nil, nil
}

// findFlag returns the flag of flags with name among its names.
func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}
