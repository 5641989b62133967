package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
)

// rewriteFlags are --rewrite RULES.yaml and --rewrite-seed, for the commands that pass records
// on (convert, import, load): add them to a command's flags, and wrap its source with
// rewriteSource.
func rewriteFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "rewrite", Usage: "anonymise the records by the rules of `RULES.yaml` (see docs/rewrite.md)", Category: "Rewrite"},
		&cli.Uint64Flag{Name: "rewrite-seed", Usage: "the seed of --rewrite's replacements, instead of the rules file's (keep it secret)", Category: "Rewrite"},
	}
}

// rewriteRules reads the rules of --rewrite, with the seed of --rewrite-seed if given; nil
// without --rewrite.
func rewriteRules(c *cli.Context) (*rewrite.Rules, error) {
	path := c.String("rewrite")
	if path == "" {
		if c.IsSet("rewrite-seed") {
			return nil, errors.New("--rewrite-seed goes with --rewrite")
		}
		return nil, nil
	}
	rules, err := rewrite.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if c.IsSet("rewrite-seed") {
		rules.Seed = c.Uint64("rewrite-seed")
	}
	return rules, nil
}

// rewriteSource returns src with its records rewritten by the rules of --rewrite (see
// rewriteRules), keys that a rename makes twice handled by --on-duplicate (rewrite.Unique),
// and the rules' description for the manifest; without --rewrite it returns src and nil.
func rewriteSource(c *cli.Context, src record.Source) (record.Source, *rewrite.Description, error) {
	rules, err := rewriteRules(c)
	if err != nil || rules == nil {
		return src, nil, err
	}
	on := record.DupError
	if rules.Renames() {
		if on, err = onDuplicate(c); err != nil {
			return nil, nil, err
		}
	}
	desc := rules.Describe()
	out, _ := rewrite.Unique(src, rules, on)
	return out, &desc, nil
}
