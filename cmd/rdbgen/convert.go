package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/summary"
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
			skipUnsupportedFlag(),
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
	f.Now = j.now
	opts := convert.Options{Filter: f, SkipUnsupported: c.Bool("skip-unsupported"), DropFunctions: c.Bool("drop-functions")}
	if c.Bool("rebase-expiry") || c.IsSet("rebase-to") {
		if opts.RebaseTo, err = timeFlag(c, "rebase-to", j.now); err != nil {
			return err // refused before the input is read
		}
	}
	if err := checkFunctionFlags(c, true, j.opts.RESP != nil); err != nil {
		return err
	}
	onDup, err := onDuplicate(c)
	if err != nil {
		return err
	}
	in, err := openInput(c, c.Args().First(), input.Options{Format: input.RDB, OnDuplicate: onDup})
	if err != nil {
		return errInterrupted(err)
	}
	defer in.Close()
	return convertRDB(c, j, in, opts, onDup)
}

// convertRDB writes the dump in as the job's output, created when the input was (unless
// --base-time says when) or its expiries moved as opts say (see convert.Options.Dump),
// rewritten by --rewrite, keys that come again treated as onDup says; import uses it for
// dumps too.
func convertRDB(c *cli.Context, j *fileJob, in *input.Input, opts convert.Options, onDup record.OnDuplicate) error {
	if err := liveSplit(c, j, in); err != nil {
		return err
	}
	rules, err := rewriteRules(c)
	if err != nil {
		return err
	}
	opts.KeepCreated = c.IsSet("base-time")
	dump, err := opts.Dump(c.Context, in, &j.opts, rules, onDup)
	switch {
	case err != nil && !opts.RebaseTo.IsZero():
		return fmt.Errorf("--rebase-expiry: %w", err)
	case errors.Is(err, rebase.ErrBadCreationTime):
		return fmt.Errorf("%w; give the output's creation time with --base-time", err)
	case err != nil:
		return err
	}
	report, err := j.write(c, dump.Source, dump.Describe)
	if err != nil {
		return livePermHint(c, err)
	}
	notes := summary.ConvertNotes(*dump.Stats, in.Read, 0)
	if in.Cluster != nil && in.Cluster.MovingSlots() > 0 {
		notes += fmt.Sprintf("; %d slots migrated or moved between primaries during the reading (--allow-moving-slots): their keys may be missing or written twice", in.Cluster.MovingSlots())
	}
	if in.Touched() {
		notes += "; the scan reset every key's OBJECT IDLETIME (LRU) or LFU count on the source: it has no CLIENT NO-TOUCH (Redis 7.2+)"
	}
	counts := summary.ConvertCounts(*dump.Stats, in.Read, 0)
	counts.KeyPatterns, counts.OutsideKeyPatterns = in.KeyPatterns()
	return report(counts, notes+counts.KeyPatternsNote())
}
