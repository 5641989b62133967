package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
)

// rewriteFlags are --rewrite RULES.yaml and --rewrite-seed, for the commands that pass records
// on (convert, import, load): add them to a command's flags, and wrap its sink with
// rewriteSink.
func rewriteFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "rewrite", Usage: "anonymise the records by the rules of `RULES.yaml` (see the README)", Category: "Rewrite"},
		&cli.Uint64Flag{Name: "rewrite-seed", Usage: "the seed of --rewrite's replacements, instead of the rules file's (keep it secret)", Category: "Rewrite"},
	}
}

// loadRewriteRules reads the --rewrite file with its seed from --rewrite-seed; it returns nil
// without --rewrite.
func loadRewriteRules(c *cli.Context) (*rewrite.Rules, error) {
	path := c.String("rewrite")
	if path == "" {
		if c.IsSet("rewrite-seed") {
			return nil, errors.New("--rewrite-seed goes with --rewrite")
		}
		return nil, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read rewrite rules: %w", err)
	}
	rules, err := rewrite.Parse(path, src)
	if err != nil {
		return nil, err
	}
	if c.IsSet("rewrite-seed") {
		rules.Seed = c.Uint64("rewrite-seed")
	}
	return rules, nil
}

// rewriteSink wraps sink in the rules of --rewrite; without the flag it returns sink and nil.
// The *rewrite.Sink's Stats count what was rewritten, and rules.Describe() goes into the
// manifest.
func rewriteSink(c *cli.Context, sink record.Sink) (record.Sink, *rewrite.Rules, error) {
	rules, err := loadRewriteRules(c)
	if err != nil || rules == nil {
		return sink, nil, err
	}
	s, err := rewrite.New(sink, rules)
	if err != nil {
		return nil, nil, err
	}
	return s, rules, nil
}
