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
			onDuplicateFlag(""),
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
	onDup, err := onDuplicate(c)
	if err != nil {
		return err
	}
	return convertRDB(c, j, c.Args().First(), nil, opts, onDup)
}

// onDuplicateFlag is the --on-duplicate flag of the commands that read records; category
// groups it in the help.
func onDuplicateFlag(category string) cli.Flag {
	return &cli.StringFlag{Name: "on-duplicate", Value: string(record.DupError), Category: category,
		Usage: "a key that comes again in its db: error, first (keep it) or last (keep the last; reads the input twice)"}
}

// onDuplicate reads --on-duplicate.
func onDuplicate(c *cli.Context) (record.OnDuplicate, error) {
	d := record.OnDuplicate(c.String("on-duplicate"))
	if !d.Valid() {
		return "", fmt.Errorf("--on-duplicate %q (known: error, first, last)", d)
	}
	return d, nil
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
	read  *decoder.Stats // if not nil, set to the reader's counts once read
}

func (s rdbSource) WriteTo(ctx context.Context, sink record.Sink) error {
	if s.path != "-" && !isGzip(s.path) {
		// A file as it is: the reader can read a long quicklist twice instead of holding it.
		rd, err := decoder.File{Path: s.path, Options: s.opts}.Read(ctx, sink)
		s.stats(rd)
		return err
	}
	in, err := importer.Open(s.path, s.stdin)
	if err != nil {
		return err
	}
	defer in.Close()
	if s.opts.OnDuplicate == record.DupLast {
		// Read twice: stdin, or the dump a gzipped file holds, is kept in a temporary file.
		path, err := importer.Spool(in, "")
		if err != nil {
			return fmt.Errorf("keep %s for a second reading (--on-duplicate last): %w", inputName(s.path), err)
		}
		defer os.Remove(path)
		rd, err := decoder.File{Path: path, Name: inputName(s.path), Options: s.opts}.Read(ctx, sink)
		s.stats(rd)
		return err
	}
	rd, err := decoder.NewReader(in, s.opts)
	if err == nil {
		err = rd.WriteTo(ctx, sink)
		s.stats(rd)
	}
	var de *decoder.Error
	if errors.As(err, &de) {
		// The file's fault: name it. The sink's errors name their key already.
		return fmt.Errorf("read %s: %w", inputName(s.path), err)
	}
	return err
}

// stats keeps the counts of rd, when s.read asks for them.
func (s rdbSource) stats(rd *decoder.Reader) {
	if s.read != nil && rd != nil {
		*s.read = rd.Stats()
	}
}

// convertRDB writes the RDB file input (or stdin, read from in when it is not nil) as the
// job's output, keys that come again treated as onDup says; import uses it for dumps too.
func convertRDB(c *cli.Context, j *fileJob, input string, in io.Reader, opts rdbgen.ConvertOptions, onDup record.OnDuplicate) error {
	if in == nil {
		in = c.App.Reader
	}
	read := &decoder.Stats{}
	src := rdbSource{path: input, stdin: in, read: read, opts: decoder.Options{SkipModules: opts.SkipUnsupported, OnDuplicate: onDup}}
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
		m.Import = convertManifest(input, *stats, read.Duplicates, onDup)
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
	ic := convertCounts(*stats)
	ic.Records += read.Duplicates
	ic.Duplicates = read.Duplicates
	return report(ic, convertNotes(*stats, read.Duplicates))
}

// convertManifest returns the manifest section of a dump read: stats, and dups records of
// keys that came again left out under onDup.
func convertManifest(input string, stats rdbgen.ConvertStats, dups uint64, onDup record.OnDuplicate) *manifest.Import {
	return &manifest.Import{Inputs: []string{input}, Format: formatRDB, Records: stats.Read + dups, Skipped: stats.Unsupported,
		Duplicates: dups, OnDup: string(onDup)}
}

func convertCounts(stats rdbgen.ConvertStats) importCounts {
	return importCounts{Records: stats.Read, Skipped: stats.Unsupported}
}

// convertNotes tells what a convert left out: dups records of keys that came again too.
func convertNotes(stats rdbgen.ConvertStats, dups uint64) string {
	var notes []string
	if dups > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d records of keys that came again (--on-duplicate)", dups))
	}
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
