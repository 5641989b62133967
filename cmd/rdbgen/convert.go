package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rebase"
	"github.com/rdbgen/rdbgen/record"
)

func convertCommand() *cli.Command {
	return &cli.Command{
		Name:      "convert",
		Usage:     "rewrite an RDB file for another server (down or up), optionally filtered",
		UsageText: "rdbgen convert dump.rdb -o out.rdb --target redis-6.2 [--match 'user:*'] [--sample 0.1]\nrdbgen convert redis://user:password@host:6379 -o out.rdb --target redis-6.2 [--via scan]",
		Flags: append(append(filterFlags(),
			&cli.BoolFlag{Name: "rebase-expiry", Usage: "move every expiry (keys and hash fields) by the time from the input's creation (its ctime, else its manifest's) to now (--base-time, if set), so that a key that had ttl left then has ttl left now", Category: "Expiries"},
			&cli.StringFlag{Name: "rebase-to", Usage: "with --rebase-expiry (implied), move the expiries to this time instead: RFC 3339, Unix seconds, or a duration from now", Category: "Expiries"},
			&cli.BoolFlag{Name: "skip-unsupported", Usage: fmt.Sprintf("leave out the keys the target cannot hold (field TTLs before RDB %d, streams before RDB %d, module values before RDB %d) instead of failing", encoder.HashFieldTTL.Since(), encoder.Streams.Since(), encoder.ModuleValues.Since())},
			onDuplicateFlag(""),
		), slices.Concat(fileFlags(), clusterFlags(), rewriteFlags(), functionFlags(), liveFlags())...),
		Action: convertAction,
	}
}

func convertAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("convert takes one input: an RDB file, - for stdin, or a live server (redis://…)")
	}
	f, err := filterOptions(c)
	if err != nil {
		return err
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
	opts := convert.Options{Filter: f, SkipUnsupported: c.Bool("skip-unsupported"), DropFunctions: c.Bool("drop-functions")}
	in, err := openInput(c, c.Args().First(), input.Options{Format: input.RDB, OnDuplicate: onDup})
	if err != nil {
		return errInterrupted(err)
	}
	defer in.Close()
	return convertRDB(c, j, in, opts, c.Bool("rebase-expiry") || c.IsSet("rebase-to"), onDup)
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
func setCreated(c *cli.Context, j *fileJob, in *input.Input, opts *convert.Options, rebasing bool) error {
	if !rebasing && c.IsSet("base-time") {
		return nil
	}
	from, err := rebase.InputCreated(c.Context, in)
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

// convertRDB writes the dump in as the job's output, created when the input was (see
// setCreated), its expiries moved when rebasing, keys that come again treated as onDup says;
// import uses it for dumps too.
func convertRDB(c *cli.Context, j *fileJob, in *input.Input, opts convert.Options, rebasing bool, onDup record.OnDuplicate) error {
	if err := liveSplit(c, j, in); err != nil {
		return err
	}
	if err := setCreated(c, j, in, &opts, rebasing); err != nil {
		return err
	}
	if j.resp != nil {
		// Commands are loaded later, into a server that keeps a key written with a past
		// expiry until its expiry cycle finds it: keys expired now are dropped and counted, as
		// a server drops them when it loads a file.
		opts.Filter.DropExpired = true
	}
	j.opts.Encoder.CountsAreHints = true // a dump's RESIZEDB counts are hints; a db may come twice
	conv, convStats, err := convert.Through(in.Source, j.opts.Encoder, opts)
	if err != nil {
		return err
	}
	stats := convStats // complete once the source is read
	rewritten, rules, err := rewriteSource(c, conv)
	if err != nil {
		return err
	}
	report, err := j.write(c, rewritten, func(m *manifest.Manifest) {
		m.Import = in.DumpManifest(stats.Read, stats.Unsupported, onDup)
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
	ic := summary.ConvertCounts(*stats)
	ic.Records += in.Read.Duplicates
	ic.Duplicates = in.Read.Duplicates
	ic.NewerDropped = in.Read.NewerDropped
	return report(ic, summary.ConvertNotes(*stats, in.Read.Duplicates)+summary.NewerNotes(in.Read.NewerDropped))
}
