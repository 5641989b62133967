package convert

import (
	"context"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
)

// A Dump is a dump opened by package input, converted for an output: its records, and what
// they are for the output's manifests.
type Dump struct {
	// Source gives the converted records, rewritten by the rules given, if any.
	Source record.Source
	// Stats count what the conversion kept and left out, once Source is written.
	Stats *Stats
	in    *input.Input
	onDup record.OnDuplicate
	opts  Options
	rules *rewrite.Rules
}

// Dump converts the dump in for the output out describes, as Through does: created when in
// was, or its expiries moved (see SetCreated, which sets out.Encoder.CreatedAt), its
// RESIZEDB counts taken as hints, and into RESP commands (out.RESP) without the keys expired
// now, which a server loading a file would drop but keeps, written with a past expiry, until
// its expiry cycle finds them. rules, if not nil, rewrite the converted records. onDup is how
// in's reading treated keys that came again, for the manifest.
func (o Options) Dump(ctx context.Context, in *input.Input, out *output.Options, rules *rewrite.Rules, onDup record.OnDuplicate) (*Dump, error) {
	if err := o.SetCreated(ctx, in, &out.Encoder); err != nil {
		return nil, err
	}
	if out.RESP != nil {
		o.Filter.DropExpired = true
	}
	out.Encoder.CountsAreHints = true // a db of a dump may come in two sections
	conv, stats, err := Through(in.Source, out.Encoder, o)
	if err != nil {
		return nil, err
	}
	if rules != nil {
		var d *record.Distinct
		if conv, d = rewrite.Unique(conv, rules, onDup); d != nil {
			conv = &countDuplicates{Distinct: d, stats: stats}
		}
	}
	return &Dump{Source: conv, Stats: stats, in: in, onDup: onDup, opts: o, rules: rules}, nil
}

// Describe adds to m what the records are: the dump read, the rules that rewrote them, and
// the move of their expiries.
func (d *Dump) Describe(m *manifest.Manifest) {
	m.Import = d.in.DumpManifest(d.Stats.Read, d.Stats.Unsupported, d.onDup)
	if d.rules != nil {
		desc := d.rules.Describe()
		m.Rewrite = &desc
	}
	if d.opts.Rebase != nil {
		m.Rebase = d.opts.Rebase
	}
}

// countDuplicates is a record.Distinct that counts in stats what it left out.
type countDuplicates struct {
	*record.Distinct
	stats *Stats
}

// WriteTo writes the records and counts.
func (c *countDuplicates) WriteTo(ctx context.Context, sink record.Sink) error {
	err := c.Distinct.WriteTo(ctx, sink)
	c.stats.Duplicates = c.Distinct.Duplicates
	return err
}
