package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

func convertCommand() *cli.Command {
	return &cli.Command{
		Name:      "convert",
		Usage:     "rewrite an RDB file for another server (down or up), optionally filtered",
		UsageText: "rdbgen convert dump.rdb -o out.rdb --target redis-6.2 [--match 'user:*'] [--sample 0.1]",
		Flags: append([]cli.Flag{
			&cli.IntSliceFlag{Name: "db", Usage: "keep only these databases (repeat the flag or separate with commas)", Category: "Filters"},
			&cli.StringFlag{Name: "match", Usage: "keep only keys matching this glob (Redis rules: * ? [a-z] [^x] \\)", Category: "Filters"},
			&cli.StringSliceFlag{Name: "type", Usage: "keep only these types: string, list, set, zset, hash, stream", Category: "Filters"},
			&cli.Float64Flag{Name: "sample", Usage: "keep this fraction of the keys (0 to 1), chosen by a hash of --seed and the key", Category: "Filters"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of --sample", Category: "Filters"},
			&cli.BoolFlag{Name: "drop-expired", Usage: "drop keys whose TTL has passed", Category: "Filters"},
			&cli.BoolFlag{Name: "rebase-expiry", Usage: "move every expiry (keys and hash fields) by the time from the input's creation (its ctime, else its manifest's) to now (--base-time, if set), so that a key that had ttl left then has ttl left now", Category: "Expiries"},
			&cli.StringFlag{Name: "rebase-to", Usage: "with --rebase-expiry (implied), move the expiries to this time instead: RFC 3339, Unix seconds, or a duration from now", Category: "Expiries"},
			&cli.BoolFlag{Name: "skip-unsupported", Usage: "leave out the keys the target cannot hold (field TTLs before RDB 12, module values) instead of failing"},
		}, slices.Concat(fileFlags(), clusterFlags(), rewriteFlags())...),
		Action: convertAction,
	}
}

func convertAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("convert takes one input: an RDB file, or - for stdin")
	}
	f := filter.Options{
		Match:       c.String("match"),
		Sample:      c.Float64("sample"),
		Seed:        c.Uint64("seed"),
		DropExpired: c.Bool("drop-expired"),
	}
	if c.IsSet("db") {
		f.DBs = c.IntSlice("db")
	}
	for _, t := range c.StringSlice("type") {
		for _, s := range strings.Split(t, ",") {
			f.Types = append(f.Types, record.Type(strings.TrimSpace(s)))
		}
	}
	if c.IsSet("sample") && (f.Sample <= 0 || f.Sample > 1) {
		return fmt.Errorf("--sample %v: want a fraction above 0 and at most 1", f.Sample)
	}
	if _, err := filter.New(nil, f); err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	j, err := newFileJob(c)
	if err != nil {
		return err
	}
	f.Now = j.now
	opts := rdbgen.ConvertOptions{Filter: f, SkipUnsupported: c.Bool("skip-unsupported")}
	if c.Bool("rebase-expiry") || c.IsSet("rebase-to") {
		if opts.Rebase, err = rebaseShift(c, j.now); err != nil {
			return err
		}
	}
	return convertRDB(c, j, c.Args().First(), nil, opts)
}

// rebaseShift reads --rebase-to and the input's creation time, and returns the move of the
// expiries from the one to the other.
func rebaseShift(c *cli.Context, now time.Time) (*rebase.Shift, error) {
	to, err := timeFlag(c, "rebase-to", now)
	if err != nil {
		return nil, err
	}
	input := c.Args().First()
	if input == "-" || isGzip(input) {
		return nil, fmt.Errorf("--rebase-expiry needs the input's creation time: give an RDB file, not %s", inputName(input))
	}
	from, err := rebase.Created(c.Context, input)
	if err != nil {
		return nil, fmt.Errorf("--rebase-expiry: %w", err)
	}
	s := rebase.NewShift(from, to)
	return &s, nil
}

// rdbSource is a record.Source over an RDB file, gzip-compressed or not, or stdin (once).
type rdbSource struct {
	path  string
	stdin io.Reader
	opts  decoder.Options
}

func (s rdbSource) WriteTo(ctx context.Context, sink record.Sink) error {
	if s.path != "-" && !isGzip(s.path) {
		// A file as it is: the reader can read a long quicklist twice instead of holding it.
		return decoder.File{Path: s.path, Options: s.opts}.WriteTo(ctx, sink)
	}
	in, err := importer.Open(s.path, s.stdin)
	if err != nil {
		return err
	}
	defer in.Close()
	rd, err := decoder.NewReader(in, s.opts)
	if err == nil {
		err = rd.WriteTo(ctx, sink)
	}
	var de *decoder.Error
	if errors.As(err, &de) {
		// The file's fault: name it. The sink's errors name their key already.
		return fmt.Errorf("read %s: %w", inputName(s.path), err)
	}
	return err
}

// convertRDB writes the RDB file input (or stdin, read from in when it is not nil) as the
// job's output; import uses it for dumps too.
func convertRDB(c *cli.Context, j *fileJob, input string, in io.Reader, opts rdbgen.ConvertOptions) error {
	if in == nil {
		in = c.App.Reader
	}
	src := rdbSource{path: input, stdin: in, opts: decoder.Options{SkipModules: opts.SkipUnsupported}}
	j.opts.Encoder.CountsAreHints = true // a dump's RESIZEDB counts are hints; a db may come twice
	conv, stats, err := rdbgen.ConvertSource(src, j.opts.Encoder, opts)
	if err != nil {
		return err
	}
	rewritten, rules, err := rewriteSource(c, conv)
	if err != nil {
		return err
	}
	report, err := j.write(c, rewritten, func(m *manifest.Manifest) {
		m.Import = convertManifest(input, *stats)
		if rules != nil {
			m.Rewrite = rules
		}
		if opts.Rebase != nil {
			m.Rebase = opts.Rebase
		}
	})
	if err != nil {
		return err
	}
	return report(convertCounts(*stats), convertNotes(*stats))
}

func convertManifest(input string, stats rdbgen.ConvertStats) *manifest.Import {
	return &manifest.Import{Inputs: []string{input}, Format: formatRDB, Records: stats.Read, Skipped: stats.Unsupported}
}

func convertCounts(stats rdbgen.ConvertStats) importCounts {
	return importCounts{Records: stats.Read, Skipped: stats.Unsupported}
}

// convertNotes tells what a convert left out.
func convertNotes(stats rdbgen.ConvertStats) string {
	var notes []string
	if stats.Filtered > 0 {
		notes = append(notes, fmt.Sprintf("filtered out %d of %d keys", stats.Filtered, stats.Read))
	}
	if stats.Unsupported > 0 {
		notes = append(notes, fmt.Sprintf("left out %d keys the target cannot hold", stats.Unsupported))
	}
	if len(notes) == 0 {
		return ""
	}
	return "; " + strings.Join(notes, "; ")
}

// formatRDB is import's --input-format for RDB files.
const formatRDB = "rdb"

// sniffRDB tells whether input starts with an RDB file's magic bytes, "REDIS" (after gzip,
// if it is compressed). For stdin it returns the reader to use from then on, which keeps the
// bytes it looked at.
func sniffRDB(input string, stdin io.Reader) (bool, *importer.Input, error) {
	if input != "-" {
		in, err := importer.Open(input, nil)
		if err != nil {
			return false, nil, err
		}
		defer in.Close()
		return hasMagic(in), nil, nil
	}
	in, err := importer.Open("-", stdin)
	if err != nil {
		return false, nil, err
	}
	return hasMagic(in), in, nil
}

func hasMagic(in *importer.Input) bool {
	br, ok := in.Reader.(*bufio.Reader)
	if !ok {
		return false
	}
	b, _ := br.Peek(5)
	return string(b) == "REDIS"
}

// isGzip tells whether the file at path starts with gzip's magic bytes.
func isGzip(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [2]byte
	n, _ := io.ReadFull(f, b[:])
	return n == 2 && b[0] == 0x1f && b[1] == 0x8b
}
