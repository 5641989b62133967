package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
)

// allowEmpty are the string flags whose empty value means something, and what.
var allowEmpty = map[string]string{
	"key-prefix":  "keys named by their number alone: 0, 1, ...",
	"password":    "no password, as an empty REDISCLI_AUTH",
	"docker-host": "the default Docker engine, as an empty DOCKER_HOST",
}

// refuseEmpty refuses a string flag given an empty value (--match "", --type "", --type
// "hash,"), which would otherwise take another meaning (every key, strings only) or the
// default silently; the flags of allowEmpty aside.
func refuseEmpty(c *cli.Context) error {
	for _, f := range commandFlags(c) {
		name := f.Names()[0]
		if _, ok := allowEmpty[name]; ok || !c.IsSet(name) {
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

// setRefuseEmpty makes every command, at any depth, and the app refuse empty values.
func setRefuseEmpty(app *cli.App) {
	app.Before = chainBefore(refuseEmpty, app.Before)
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			c.Before = chainBefore(refuseEmpty, c.Before)
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
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

// badValue is urfave/cli's error for a value a number flag cannot parse.
var badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): `)

// flagValueError rewrites a flag value's parse error (`invalid value "" for flag -db:
// strconv.ParseInt: parsing "": invalid syntax`) as one line naming the flag, the value and
// what it takes; other errors come back as they are.
func flagValueError(c *cli.Context, err error) error {
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

func hasName(f cli.Flag, name string) bool {
	for _, n := range f.Names() {
		if n == name {
			return true
		}
	}
	return false
}
