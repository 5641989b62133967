package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/record"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "tell what an RDB file holds and the used_memory it will take on a server; writes nothing",
		UsageText: "rdbgen inspect dump.rdb [--json] [--target T] [--top N]\nrdbgen inspect - < dump.rdb.gz\nrdbgen inspect redis://host:6379",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "server of the memory estimate, e.g. redis-7.0 (default the release the file names, else the Redis of its RDB version, else " + inspect.FallbackTarget + ")"},
			&cli.IntFlag{Name: "top", Value: inspect.DefaultTop, Usage: "number of largest keys listed, by size and by members (0: none)"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON (the shape the README documents)"},
			&cli.BoolFlag{Name: "prefixes", Usage: "keys, bytes and estimated memory per key prefix (the --top largest, the rest as \"other\")"},
			&cli.StringFlag{Name: "separator", Value: ":", Usage: "with --prefixes: what splits a key's name"},
			&cli.IntFlag{Name: "depth", Value: 1, Usage: "with --prefixes: the parts of a name a prefix keeps"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress"},
		}, slices.Concat(encodingFlags(), liveFlags())...),
		Action: inspectAction,
	}
}

func inspectAction(c *cli.Context) error {
	args := c.Args().Slice()
	switch {
	case len(args) == 0:
		return errors.New("no file to inspect (rdbgen inspect dump.rdb)")
	case len(args) > 1:
		return fmt.Errorf("unexpected argument %q: inspect takes one file", args[1])
	}
	path := args[0]
	top := c.Int("top")
	if top < 0 {
		return fmt.Errorf("--top %d: want 0 or more", top)
	}
	if top == 0 {
		top = -1 // none
	}
	opts := inspect.Options{Target: c.String("target"), Top: top, Thresholds: thresholdsFrom(c)}
	if c.Bool("prefixes") {
		if c.Int("depth") < 1 || c.String("separator") == "" {
			return fmt.Errorf("--depth %d --separator %q: want a depth of 1 or more and a separator", c.Int("depth"), c.String("separator"))
		}
		opts.Prefixes = &inspect.PrefixOptions{Separator: c.String("separator"), Depth: c.Int("depth"), Top: max(top, 1)}
	} else if c.IsSet("separator") || c.IsSet("depth") {
		return errors.New("--separator and --depth go with --prefixes")
	}
	var bar *progressbar.ProgressBar
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		bar = newBar(c.App.ErrWriter, fi.Size(), "bytes", c.Bool("quiet") || c.Bool("json"))
	}
	if bar != nil {
		opts.Decoder.Progress = func(p record.Progress) { _ = bar.Set64(p.Bytes) }
	}
	rep, err := inspectInput(c, path, opts)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return errInterrupted(err)
	}
	if c.Bool("json") {
		return printJSON(c.App.Writer, rep)
	}
	return printInspect(c.App.Writer, rep)
}

// inspectInput inspects the file at path as it is, or gzip-compressed, or stdin ("-"), as
// convert reads its input: stdin and gzip through a temporary file, so that the reader may
// read a long list twice instead of holding it.
func inspectInput(c *cli.Context, path string, opts inspect.Options) (*inspect.Report, error) {
	in, err := openInput(c, path, input.Options{Format: input.RDB})
	if err != nil {
		return nil, err
	}
	defer in.Close()
	var f io.ReadCloser
	if in.Kind == input.Live {
		f, err = snapshot(c, in)
	} else {
		f, err = os.Open(in.Path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opts.Decoder.MaxHeldBytes = maxHeldBytes
	rep, err := inspect.Read(c.Context, f, opts)
	var de *decoder.Error
	if errors.As(err, &de) {
		return nil, fmt.Errorf("read %s: %w", in.Name, err)
	}
	return rep, err
}

// auxName returns an AUX field's name as it is when it is plain (printable ASCII, no space
// or quote), else quoted.
func auxName(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' || s[i] == '"' || s[i] == '\\' {
			return strconv.Quote(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}

// printInspect writes the report as text.
func printInspect(w io.Writer, r *inspect.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "RDB %d, %s, %d keys (%d with TTL), %d members\n", r.RDBVersion, human.Bytes(r.Bytes), r.Keys, r.Expires, r.Members)
	for _, k := range slices.Sorted(maps.Keys(r.Aux)) {
		// Quoted as keys are: a value may hold newlines or terminal escapes.
		fmt.Fprintf(&b, "  aux %s = %q\n", auxName(k), r.Aux[k])
	}
	if r.Functions > 0 {
		fmt.Fprintf(&b, "  %d function libraries\n", r.Functions)
	}
	if len(r.Modules) > 0 {
		fmt.Fprintf(&b, "  module keys per module type (a server loads them only with their module): %s\n", moduleList(r.Modules))
	}
	if len(r.ModuleAux) > 0 {
		fmt.Fprintf(&b, "  module AUX data: %s\n", moduleList(r.ModuleAux))
	}
	bound := ""
	if r.Memory.LowerBound {
		bound = "at least " // module values count at their serialized size
	}
	fmt.Fprintf(&b, "used_memory on %s once loaded: %s%s (%d bytes above an empty server", r.Memory.Target, bound, human.Bytes(r.Memory.Bytes), r.Memory.Bytes)
	if r.Memory.LowerBound {
		b.WriteString("; a lower bound: module values count at their serialized size")
	}
	b.WriteString(")\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "db\tkeys\texpires\tfile bytes\t")
	for _, d := range r.DBs {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t\n", d.DB, d.Keys, d.Expires, d.Bytes)
	}
	fmt.Fprintln(tw, "type\tkeys\tmembers\tfile bytes\t")
	for _, t := range r.Types {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", t.Type, t.Keys, t.Members, t.Bytes)
	}
	fmt.Fprintln(tw, "file encoding\tkeys\t\t\t")
	for _, e := range r.Encodings {
		fmt.Fprintf(tw, "%s\t%d\t\t\t\n", e.Encoding, e.Keys)
	}
	fmt.Fprintln(tw, "server encoding\tkeys\tused_memory\t\t")
	for _, e := range r.Memory.Encodings {
		fmt.Fprintf(tw, "%s %s\t%d\t%d\t\t\n", e.Type, e.Encoding, e.Keys, e.Bytes)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	x := r.Expiry
	if x.Keys > 0 {
		fmt.Fprintf(&b, "expiries: %d keys, %d already expired at %s; earliest %s, last %s\n  ", x.Keys, x.Expired,
			human.MSTime(x.NowMS), human.MSTime(x.EarliestMS), human.MSTime(x.LatestMS))
		for i, h := range x.Histogram {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %d", h.Within, h.Keys)
		}
		b.WriteString("\n")
	}
	for _, l := range []struct {
		what string
		keys []inspect.Key
	}{{"largest by size in the file", r.Largest.BySize}, {"largest by members", r.Largest.ByMembers}} {
		if len(l.keys) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n", l.what)
		for _, k := range l.keys {
			fmt.Fprintf(&b, "  db %d %q %s (%s): %d bytes, %d members\n", k.DB, k.Key, k.Type, k.Encoding, k.Bytes, k.Members)
		}
	}
	if len(r.Prefixes) > 0 {
		b.WriteString("by key prefix (largest estimated memory first):\n")
		for _, p := range r.Prefixes {
			name := strconv.Quote(p.Prefix)
			if p.Other {
				name = "(other)"
			}
			fmt.Fprintf(&b, "  %s: %d keys, %s in the file, %s estimated memory\n", name, p.Keys, human.Bytes(p.Bytes), human.Bytes(p.Memory))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// moduleList renders counts per module as "2 MBbloom--, 1 ReJSON-RL".
func moduleList(ms []inspect.ModuleCount) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%d %s", m.Count, m.Module)
	}
	return strings.Join(parts, ", ")
}
