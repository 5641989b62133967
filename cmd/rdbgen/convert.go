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

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/encoder"
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
			&cli.BoolFlag{Name: "drop-expired", Usage: "drop keys and hash fields whose TTL has passed (at --base-time, default now)", Category: "Filters"},
			&cli.BoolFlag{Name: "rebase-expiry", Usage: "move every expiry (keys and hash fields) by the time from the input's creation (its ctime, else its manifest's) to now (--base-time, if set), so that a key that had ttl left then has ttl left now", Category: "Expiries"},
			&cli.StringFlag{Name: "rebase-to", Usage: "with --rebase-expiry (implied), move the expiries to this time instead: RFC 3339, Unix seconds, or a duration from now", Category: "Expiries"},
			&cli.BoolFlag{Name: "skip-unsupported", Usage: fmt.Sprintf("leave out the keys the target cannot hold (field TTLs before RDB %d, streams before RDB %d, module values before RDB %d) instead of failing", encoder.HashFieldTTL.Since(), encoder.Streams.Since(), encoder.ModuleValues.Since())},
			onDuplicateFlag(""),
		}, slices.Concat(fileFlags(), clusterFlags(), rewriteFlags(), functionFlags())...),
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
	if c.IsSet("rebase-to") {
		if _, err := timeFlag(c, "rebase-to", j.now); err != nil {
			return err // refused before the input is read
		}
	}
	if err := j.readFunctionFlags(c); err != nil {
		return err
	}
	onDup, err := onDuplicate(c)
	if err != nil {
		return err
	}
	f.Now = j.now
	opts := rdbgen.ConvertOptions{Filter: f, SkipUnsupported: c.Bool("skip-unsupported"), DropFunctions: c.Bool("drop-functions")}
	return convertRDB(c, j, c.Args().First(), nil, opts, c.Bool("rebase-expiry") || c.IsSet("rebase-to"), onDup)
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

// setCreated sets the output's creation time (its ctime) to the input's (its ctime AUX
// field, else its own manifest's), unless --base-time gives one; an input that tells none
// gets the time of the run. With rebase, it sets opts.Rebase to the move of the expiries from
// the input's creation time to --rebase-to (default the run's time), the output's creation
// time then.
func setCreated(c *cli.Context, j *fileJob, in *rdbInput, opts *rdbgen.ConvertOptions, rebasing bool) error {
	if !rebasing && c.IsSet("base-time") {
		return nil
	}
	from, err := in.created(c.Context)
	switch {
	case rebasing && err != nil:
		return fmt.Errorf("--rebase-expiry: %w", err)
	case rebasing:
		to, err := timeFlag(c, "rebase-to", j.now)
		if err != nil {
			return err
		}
		s := rebase.NewShift(from, to)
		opts.Rebase = &s
		j.opts.Encoder.CreatedAt = to
	case errors.Is(err, rebase.ErrNoCreationTime):
		// The input tells no creation time: the output's is the run's.
	case errors.Is(err, rebase.ErrBadCreationTime):
		return fmt.Errorf("%w; give the output's creation time with --base-time", err)
	case err != nil:
		return err
	default:
		j.opts.Encoder.CreatedAt = from
	}
	return nil
}

// rdbSource is a record.Source over an RDB file, gzip-compressed or not, or stdin (once):
// the input opened already, or path, opened (and spooled) by WriteTo.
type rdbSource struct {
	path  string
	stdin io.Reader
	opts  decoder.Options
	in    *rdbInput
	// read, if not nil, is set to the reader's counts once read.
	read *decoder.Stats
}

func (s rdbSource) WriteTo(ctx context.Context, sink record.Sink) error {
	in := s.in
	if in == nil {
		var err error
		if in, err = openRDBInput(ctx, s.path, s.stdin); err != nil {
			return err
		}
		defer in.Close()
	}
	rd, err := in.read(ctx, sink, s.opts)
	s.stats(rd)
	return err
}

// stats keeps the counts of rd, when s.read asks for them.
func (s rdbSource) stats(rd *decoder.Reader) {
	if s.read != nil && rd != nil {
		*s.read = rd.Stats()
	}
}

// convertRDB writes the RDB file input (or stdin, read from in when it is not nil) as the
// job's output, created when the input was (see setCreated), its expiries moved when rebasing,
// keys that come again treated as onDup says; import uses it for dumps too.
func convertRDB(c *cli.Context, j *fileJob, input string, in io.Reader, opts rdbgen.ConvertOptions, rebasing bool, onDup record.OnDuplicate) error {
	if in == nil {
		in = c.App.Reader
	}
	rin, err := openRDBInput(c.Context, input, in)
	if err != nil {
		return errInterrupted(err)
	}
	defer rin.Close()
	if err := setCreated(c, j, rin, &opts, rebasing); err != nil {
		return err
	}
	if j.resp != nil {
		// Commands are loaded later, into a server that keeps a key written with a past
		// expiry until its expiry cycle finds it: keys expired now are dropped and counted, as
		// a server drops them when it loads a file.
		opts.Filter.DropExpired = true
	}
	read := &decoder.Stats{}
	src := rdbSource{in: rin, read: read, opts: decoder.Options{OnDuplicate: onDup}}
	j.opts.Encoder.CountsAreHints = true // a dump's RESIZEDB counts are hints; a db may come twice
	conv, convStats, err := rdbgen.ConvertSource(src, j.opts.Encoder, opts)
	if err != nil {
		return err
	}
	stats := convStats // complete once the source is read
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
	return importCounts{Records: stats.Read, Skipped: stats.Unsupported, ExpiredFields: stats.ExpiredFields, ExpiredHashes: stats.EmptiedHashes,
		functionCounts: functionCounts{Functions: stats.Functions, FunctionsDropped: stats.FunctionsDropped}}
}

// convertNotes tells what a convert left out: dups records of keys that came again too.
func convertNotes(stats rdbgen.ConvertStats, dups uint64) string {
	var notes []string
	if dups > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d records of keys that came again (--on-duplicate)", dups))
	}
	if n := stats.Filtered - stats.EmptiedHashes; n > 0 {
		notes = append(notes, fmt.Sprintf("filtered out %d of %d keys", n, stats.Read))
	}
	if stats.Unsupported > 0 {
		notes = append(notes, fmt.Sprintf("left out %d keys the target cannot hold", stats.Unsupported))
	}
	if stats.ExpiredFields > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d hash fields that had expired (%d hashes had no other field and were dropped)", stats.ExpiredFields, stats.EmptiedHashes))
	}
	notes = append(notes, functionCounts{Functions: stats.Functions, FunctionsDropped: stats.FunctionsDropped}.notes("with")...)
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
