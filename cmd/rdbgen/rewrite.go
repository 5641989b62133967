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
// on (convert, import, load): add them to a command's flags, and wrap its source with
// rewriteSource.
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

// rewriteSource returns src with its records rewritten by the rules of --rewrite, and the
// rules' description for the manifest; without the flag it returns src and nil.
func rewriteSource(c *cli.Context, src record.Source) (record.Source, *rewrite.Description, error) {
	rules, err := loadRewriteRules(c)
	if err != nil || rules == nil {
		return src, nil, err
	}
	wrapped := record.Through(src, func(sink record.Sink) (record.Sink, error) { return rewrite.New(sink, rules) })
	desc := rules.Describe()
	return wrapped, &desc, nil
}
