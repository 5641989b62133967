package loader

import (
	"context"
	"time"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
)

// An Input is what a load sends to a server: the records of an opened input (the built-in
// dataset, a spec file or an input file), a dump's counted on their way, and what the
// manifest of the load says of them.
type Input struct {
	*input.Input
	// Records are what is loaded: the input's records, a dump's through convert.Count, then
	// through the rewrite rules of Rewrite.
	Records record.Source
	// Dump counts a dump's records once read; nil for other inputs.
	Dump *convert.Stats
	// Rewrite are the rules Records go through, or nil; the caller sets both.
	Rewrite *rewrite.Description
}

// OpenInput opens the input req names (input.OpenRequest) for a load: a dump's records are
// counted, its function libraries left out when dropFunctions. Close it once read.
func OpenInput(ctx context.Context, req input.Request, dropFunctions, dropFieldTTL bool) (*Input, error) {
	in, err := input.OpenRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	li := &Input{Input: in, Records: in.Source}
	// With dropFieldTTL, the fields already expired are left out: loaded without their
	// TTLs (Options.DropFieldTTL), they would never expire.
	conv := convert.Options{DropFunctions: dropFunctions, Filter: filter.Options{DropExpiredFields: dropFieldTTL}}
	switch {
	case in.Kind == input.RDB:
		li.Records, li.Dump, err = convert.Count(in.Source, conv)
	case dropFieldTTL:
		li.Records, _, err = convert.Count(in.Source, conv)
	}
	if err != nil {
		in.Close()
		return nil, err
	}
	return li, nil
}

// Manifest returns the manifest of the input as loaded into a server at now (res): what
// recomputes the records added to the loader's. A spec moved to other databases (specMoved)
// is left out: its file names the databases it was written for.
func (in *Input) Manifest(res *Result, now time.Time, specMoved bool) *manifest.Manifest {
	m := res.Manifest(now)
	switch {
	case in.Dataset != nil:
		m.Dataset = in.Dataset
	case in.Spec != nil && !specMoved:
		m.Spec = in.SpecManifest()
	case in.Dump != nil:
		m.Import = in.DumpManifest(in.Dump.Read, in.Dump.Unsupported+res.Unsupported, in.OnDuplicate)
	case in.Import != nil:
		m.Import = in.ImportManifest(in.OnDuplicate)
		m.Import.Skipped += res.Unsupported
		if in.Rewrite != nil {
			m.Rewrite = in.Rewrite // not a nil pointer in the interface
		}
	}
	return m
}
