package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/inspect/htmlreport"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/internal/bar"
	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/summary"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "tell what an RDB file holds and the used_memory it will take on a server; writes nothing but an --html page",
		UsageText: "rdbgen inspect dump.rdb [--json] [--target T] [--top N]\nrdbgen inspect dump.rdb --html report.html\nrdbgen inspect - < dump.rdb.gz\nrdbgen inspect redis://host:6379",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "target", Usage: "server of the memory estimate, e.g. redis-7.0 (default the release the file names, else the Redis of its RDB version, else " + inspect.FallbackTarget + ")"},
			&cli.StringFlag{Name: "allocator", Value: "jemalloc", Usage: "the server's allocator for the memory estimate, as INFO memory's mem_allocator says: jemalloc (Redis and Valkey builds) or libc (built with MALLOC=libc); default jemalloc, or what a live server reports"},
			&cli.IntFlag{Name: "top", Value: inspect.DefaultTop, Usage: "number of largest keys listed, by size and by members (0: none)"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON (the shape docs/commands/inspect.md documents)"},
			&cli.StringFlag{Name: "html", Usage: "write the report as one self-contained HTML page to `FILE` (- for stdout) instead of printing it; implies --prefixes"},
			&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "with --html: overwrite an existing file"},
			&cli.BoolFlag{Name: "prefixes", Usage: "keys, bytes and estimated memory per key prefix (the --top largest, the rest as \"other\")"},
			&cli.StringFlag{Name: "separator", Value: ":", Usage: "with --prefixes or --html: what splits a key's name"},
			&cli.IntFlag{Name: "depth", Value: 1, Usage: "with --prefixes or --html: the parts of a name a prefix keeps"},
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
	top, err := cliflags.Limit(c, "top")
	if err != nil {
		return err
	}
	opts := inspect.Options{Target: c.String("target"), Allocator: c.String("allocator"), Top: top, Thresholds: thresholdsFrom(c)}
	page := c.String("html")
	switch {
	case page == "-" && c.Bool("json"):
		return errors.New("--html - and --json both write to stdout: give --html a file name")
	case page == "" && c.IsSet("force"):
		return errors.New("--force goes with --html FILE")
	}
	var out *atomicfile.File // made now: a path that cannot be written is told before the read
	if page != "" && page != "-" {
		if a, err := os.Stat(page); err == nil {
			if b, err := os.Stat(path); err == nil && os.SameFile(a, b) {
				return fmt.Errorf("--html %s is the dump being inspected: name another file", page)
			}
		}
		if out, err = atomicfile.Create(page, c.Bool("force")); err != nil {
			return err
		}
		defer out.Abort()
	}
	if c.Bool("prefixes") || page != "" {
		if c.Int("depth") < 1 || c.String("separator") == "" {
			return fmt.Errorf("--depth %d --separator %q: want a depth of 1 or more and a separator", c.Int("depth"), c.String("separator"))
		}
		opts.Prefixes = &inspect.PrefixOptions{Separator: c.String("separator"), Depth: c.Int("depth"), Top: top}
	} else if c.IsSet("separator") || c.IsSet("depth") {
		return errors.New("--separator and --depth go with --prefixes or --html")
	}
	done := func() {}
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		opts.Decoder.Progress, done = bar.Bytes(c.App.ErrWriter, fi.Size(), c.Bool("quiet") || c.Bool("json"))
	}
	rep, err := inspectInput(c, path, &opts)
	done()
	if err != nil {
		return errInterrupted(err)
	}
	if page != "" {
		if err := writeHTMLReport(c, out, rep, opts); err != nil {
			return err
		}
		if !c.Bool("json") {
			return nil
		}
	}
	return summary.Print(c.App.Writer, rep, c.Bool("json"), false, func(w io.Writer) error { return inspect.WriteText(w, rep) })
}

// writeHTMLReport writes the page of rep into out and puts it in place, or writes it to
// stdout when out is nil (--html -).
func writeHTMLReport(c *cli.Context, out *atomicfile.File, rep *inspect.Report, opts inspect.Options) error {
	o := htmlreport.Options{Name: opts.Name, Separator: opts.Prefixes.Separator, Depth: opts.Prefixes.Depth}
	if out == nil {
		return htmlreport.Write(c.App.Writer, rep, o)
	}
	if err := htmlreport.Write(out, rep, o); err != nil {
		return err
	}
	if err := out.Commit(); err != nil {
		return err
	}
	if !c.Bool("quiet") && !c.Bool("json") {
		fmt.Fprintf(c.App.ErrWriter, "wrote %s\n", c.String("html"))
	}
	return nil
}

// inspectInput inspects the file at path as it is, or gzip-compressed, or stdin ("-"), as
// convert reads its input: stdin and gzip through a temporary file, so that the reader may
// read a long list twice instead of holding it; or a live server's snapshot, estimated for
// the allocator the server reports unless --allocator is given. It sets opts.Name to the
// input's name.
func inspectInput(c *cli.Context, path string, opts *inspect.Options) (*inspect.Report, error) {
	in, err := openInput(c, path, input.Options{Format: input.RDB})
	if err != nil {
		return nil, err
	}
	defer in.Close()
	opts.Name, opts.Decoder.MaxHeldBytes = in.Name, maxHeldBytes
	if in.Kind != input.Live {
		f, err := in.OpenDump() // an object is read where it is: a second pass reads it again
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return inspect.Read(c.Context, f, *opts)
	}
	f, err := in.Snapshot(c.Context) // first: it says what is wrong with the URL or the server
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if in.Server != nil && !c.IsSet("allocator") {
		a, err := in.Server.MemAllocator(c.Context)
		if err != nil {
			return nil, fmt.Errorf("%w (give --allocator jemalloc or libc)", err)
		}
		if !strings.HasPrefix(a, "jemalloc") && a != "libc" {
			return nil, fmt.Errorf("%s reports mem_allocator %s, which the memory estimate does not model: give --allocator jemalloc or libc", in.Name, a)
		}
		opts.Allocator = a
	}
	return inspect.Read(c.Context, f, *opts)
}
