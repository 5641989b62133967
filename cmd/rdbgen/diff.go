package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/diff"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/record"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two dumps logically (any versions, encodings, key orders); exit 0 same, 1 different, 2 trouble",
		UsageText: "rdbgen diff a.rdb b.rdb [--json] [--keys-only] [--ignore-ttl] [--limit N]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			&cli.BoolFlag{Name: "keys-only", Usage: "compare which keys (and types) each side holds, not values or expiries"},
			&cli.BoolFlag{Name: "ignore-ttl", Usage: "leave key and hash-field expiries out"},
			&cli.IntFlag{Name: "limit", Value: diff.DefaultLimit, Usage: "differing keys named (0: none); the counts take them all"},
		},
		Action: func(c *cli.Context) error {
			err := diffAction(c)
			if err != nil && !errors.Is(err, errDifferent) {
				return exitCode{2, err}
			}
			return err
		},
	}
}

// exitCode is an error that tells main the exit code; a nil err prints nothing.
type exitCode struct {
	code int
	err  error
}

func (e exitCode) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e exitCode) Unwrap() error { return e.err }
func (e exitCode) ExitCode() int { return e.code }

// errDifferent is diff's answer when the dumps differ: exit 1, nothing more printed.
var errDifferent = exitCode{code: 1}

func diffAction(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) != 2 {
		return fmt.Errorf("diff takes two files, got %d (rdbgen diff a.rdb b.rdb)", len(args))
	}
	limit := c.Int("limit")
	switch {
	case limit < 0:
		return fmt.Errorf("--limit %d: want 0 or more", limit)
	case limit == 0:
		limit = -1
	}
	var srcs [2]record.Source
	for i, p := range args {
		in, err := openInput(c, p, input.Options{Format: input.RDB})
		if err != nil {
			return err
		}
		defer in.Close()
		srcs[i] = decoder.File{Path: in.Path, Name: in.Name, Options: decoder.Options{MaxHeldBytes: maxHeldBytes}}
	}
	res, err := diff.Compare(c.Context, srcs[0], srcs[1], diff.Options{KeysOnly: c.Bool("keys-only"), IgnoreTTL: c.Bool("ignore-ttl"), Limit: limit})
	if err != nil {
		return err
	}
	if c.Bool("json") {
		err = printJSON(c.App.Writer, diffJSON(res))
	} else {
		err = printDiff(c.App.Writer, res)
	}
	if err == nil && !res.Same() {
		return errDifferent
	}
	return err
}

// diffKey is a named key in JSON: key when it is UTF-8, else key_base64 (encoding/json
// writes a []byte as base64).
type diffKey struct {
	diff.Key
	Name   string `json:"key,omitempty"`
	Base64 []byte `json:"key_base64,omitempty"`
}

func diffJSON(r *diff.Result) any {
	keys := make([]diffKey, len(r.Keys))
	for i, k := range r.Keys {
		keys[i].Key = k
		if utf8.Valid(k.Key) {
			keys[i].Name = string(k.Key)
		} else {
			keys[i].Base64 = k.Key
		}
	}
	return struct {
		Same           bool            `json:"same"`
		KeysA          uint64          `json:"keys_a"`
		KeysB          uint64          `json:"keys_b"`
		Differences    uint64          `json:"differences"`
		DBs            []diff.DBCounts `json:"dbs"`
		Keys           []diffKey       `json:"keys"`
		FunctionsOnlyA []string        `json:"functions_only_a,omitempty"`
		FunctionsOnlyB []string        `json:"functions_only_b,omitempty"`
		ModuleAuxOnlyA []string        `json:"module_aux_only_a,omitempty"`
		ModuleAuxOnlyB []string        `json:"module_aux_only_b,omitempty"`
	}{r.Same(), r.KeysA, r.KeysB, r.Differences, r.DBs, keys, r.FunctionsOnlyA, r.FunctionsOnlyB, r.ModuleAuxOnlyA, r.ModuleAuxOnlyB}
}

// printDiff writes the result as text: the named keys, then the counts.
func printDiff(w io.Writer, r *diff.Result) error {
	var b strings.Builder
	for _, k := range r.Keys {
		switch k.Kind {
		case diff.OnlyA:
			fmt.Fprintf(&b, "only in A: db %d %q (%s)\n", k.DB, k.Key, k.A.Type)
		case diff.OnlyB:
			fmt.Fprintf(&b, "only in B: db %d %q (%s)\n", k.DB, k.Key, k.B.Type)
		default:
			fmt.Fprintf(&b, "changed:   db %d %q: %s\n", k.DB, k.Key, strings.Join(k.Fields, ", "))
		}
	}
	if named := uint64(len(r.Keys)); named < r.Differences {
		fmt.Fprintf(&b, "... and %d more\n", r.Differences-named)
	}
	for _, n := range r.FunctionsOnlyA {
		fmt.Fprintf(&b, "function library only in A (or different): %q\n", n)
	}
	for _, n := range r.FunctionsOnlyB {
		fmt.Fprintf(&b, "function library only in B (or different): %q\n", n)
	}
	for _, n := range r.ModuleAuxOnlyA {
		fmt.Fprintf(&b, "%s only in A (or different)\n", n)
	}
	for _, n := range r.ModuleAuxOnlyB {
		fmt.Fprintf(&b, "%s only in B (or different)\n", n)
	}
	for _, d := range r.DBs {
		fmt.Fprintf(&b, "db %d: %d same, %d only in A, %d only in B, %d changed\n", d.DB, d.Same, d.OnlyA, d.OnlyB, d.Changed)
	}
	verdict := "same"
	if !r.Same() {
		verdict = "different"
	}
	fmt.Fprintf(&b, "%s: A %d keys, B %d keys, %d differing\n", verdict, r.KeysA, r.KeysB, r.Differences)
	_, err := io.WriteString(w, b.String())
	return err
}
