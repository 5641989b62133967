package main

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/export"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/record"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write the keys of an RDB file as JSON (the objects of hdt3213's rdb -c json), JSON Lines or CSV",
		UsageText: "rdbgen export dump.rdb [-o out.json|-] [--format json|jsonl|csv] [--match 'user:*'] [--type hash]\n" +
			"rdbgen import out.json -o back.rdb   # reads json and jsonl back, byte for byte",
		Flags: slices.Concat([]cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "output file (gzip-compressed when its name ends in .gz), or - for stdout"},
			&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "overwrite an existing output file"},
			&cli.StringFlag{Name: "format", Usage: "json (one array), jsonl (one object a line) or csv (one row a key, no values); default by the output's extension (.jsonl, .ndjson, .csv), else json"},
			&cli.StringFlag{Name: "target", Value: memory.DefaultTarget, Usage: "the server the memory estimates (size, memory) are for"},
			baseTimeFlag(),
		}, filterFlags(), summaryFlags()),
		Action: exportAction,
	}
}

func exportAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("export takes one input: an RDB file (gzip-compressed or not), or - for stdin")
	}
	out := c.String("output")
	format, err := exportFormat(c.String("format"), out)
	if err != nil {
		return err
	}
	f, err := filterOptions(c)
	if err != nil {
		return err
	}
	if f.Now, err = baseTime(c, time.Now()); err != nil {
		return err
	}
	est, err := memory.New(memory.Options{Target: c.String("target")})
	if err != nil {
		return err
	}
	var dst io.Writer = c.App.Writer
	var file *atomicfile.File
	if out != "-" {
		if file, err = atomicfile.Create(out, c.Bool("force")); err != nil {
			return err
		}
		defer file.Abort()
		dst = file
	}
	var gz *gzip.Writer
	if strings.HasSuffix(out, ".gz") {
		gz = gzip.NewWriter(dst)
		dst = gz
	}
	in, err := openInput(c, c.Args().First(), input.Options{Format: input.RDB})
	if err != nil {
		return errInterrupted(err)
	}
	defer in.Close()
	start := time.Now()
	s, err := exportRDB(c, in, dst, export.Options{Format: format}, f, est)
	switch {
	case errors.Is(err, context.Canceled) && out == "-":
		return errors.New("interrupted; the output on stdout is incomplete")
	case err != nil:
		return errInterrupted(err)
	}
	if gz != nil {
		if err := gz.Close(); err != nil {
			return fmt.Errorf("export: write: %w", err)
		}
	}
	if file != nil {
		if err := file.Commit(); err != nil {
			return err
		}
	}
	s.Seconds = time.Since(start).Seconds()
	s.Output, s.Format = out, string(format)
	return s.print(c, out == "-")
}

// exportFormat returns the format the flag names, else the one the output's extension
// tells, else json.
func exportFormat(flag, out string) (export.Format, error) {
	if flag != "" {
		if f := export.Format(flag); slices.Contains(export.Formats, f) {
			return f, nil
		}
		return "", fmt.Errorf("--format %q (known: json, jsonl, csv)", flag)
	}
	switch strings.ToLower(filepath.Ext(strings.TrimSuffix(out, ".gz"))) {
	case ".jsonl", ".ndjson":
		return export.FormatJSONL, nil
	case ".csv":
		return export.FormatCSV, nil
	}
	return export.FormatJSON, nil
}

// exportSummary is what an export did.
type exportSummary struct {
	Input     string  `json:"input"`
	Output    string  `json:"output"`
	Format    string  `json:"format"`
	Keys      uint64  `json:"keys"`
	Dropped   uint64  `json:"dropped"` // keys the filters left out
	Functions uint64  `json:"functions"`
	Bytes     int64   `json:"bytes"` // written
	Read      int64   `json:"read"`  // bytes of the dump
	Seconds   float64 `json:"seconds"`
}

// print writes the summary on stdout, or on stderr when the export went to stdout.
func (s exportSummary) print(c *cli.Context, toStdout bool) error {
	w := c.App.Writer
	if toStdout {
		w = c.App.ErrWriter
	}
	switch {
	case c.Bool("quiet"):
		return nil
	case c.Bool("json"):
		return printJSON(w, s)
	}
	fns := ""
	if s.Functions > 0 {
		fns = fmt.Sprintf(" and %d function libraries", s.Functions)
		if s.Format == string(export.FormatCSV) {
			fns = fmt.Sprintf(" (%d function libraries left out: CSV has no values)", s.Functions)
		}
	}
	dropped := ""
	if s.Dropped > 0 {
		dropped = fmt.Sprintf(", %d left out by the filters", s.Dropped)
	}
	_, err := fmt.Fprintf(w, "exported %d keys%s%s from %s to %s (%s, %s) in %.2fs: %.0f keys/s, %.1f MB/s\n",
		s.Keys, fns, dropped, s.Input, s.Output, s.Format, human.Bytes(s.Bytes), s.Seconds,
		human.PerSecond(s.Keys, time.Duration(s.Seconds*float64(time.Second))), float64(s.Bytes)/1e6/max(s.Seconds, 1e-9))
	return err
}

// exportRDB writes the records of in that f keeps to dst, each with its RDB encoding, its
// bytes in the file and its estimated memory, and returns the counts.
func exportRDB(c *cli.Context, in *input.Input, dst io.Writer, opts export.Options, f filter.Options, est *memory.Estimator) (exportSummary, error) {
	s := exportSummary{Input: in.Name}
	fh, err := os.Open(in.Path)
	if err != nil {
		return s, err
	}
	defer fh.Close()
	size := int64(0)
	if fi, err := fh.Stat(); err == nil {
		size = fi.Size()
	}
	bar := newBar(c.App.ErrWriter, size, "bytes", c.Bool("quiet"))
	rd, err := decoder.NewReader(fh, decoder.Options{MaxHeldBytes: maxHeldBytes, Progress: func(p record.Progress) {
		if bar != nil {
			bar.Set64(p.Bytes)
		}
	}})
	if err != nil {
		return s, fmt.Errorf("read %s: %w", in.Name, err)
	}
	opts.Detail = func(d *export.Detail) {
		d.Encoding, d.StreamVersion = export.RDBEncoding(rd.RecordType())
		d.Bytes = rd.Offset() - rd.RecordOffset()
		d.Memory = est.KeyBytes()
	}
	opts.BufferSize = 4 << 20 // writes of 4 MiB: few system calls
	w, err := export.NewWriter(dst, opts)
	if err != nil {
		return s, err
	}
	counted := &record.Count{Next: record.Tee(est, w)}
	fl, err := filter.New(counted, f)
	if err != nil {
		return s, err
	}
	err = rd.WriteTo(c.Context, fl)
	if bar != nil {
		bar.Finish()
	}
	var de *decoder.Error
	switch {
	case errors.As(err, &de):
		return s, fmt.Errorf("read %s: %w", in.Name, err)
	case err != nil:
		return s, err
	}
	if err := w.Close(); err != nil {
		return s, err
	}
	s.Keys, s.Functions, s.Bytes, s.Read = w.Keys(), counted.Functions, w.Written(), rd.Stats().Bytes
	s.Dropped = fl.Stats().Dropped
	return s, nil
}
