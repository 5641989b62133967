package input

import (
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

// ImportManifest returns the manifest section of a JSON or CSV input as its last reading
// counted it; onDup is what a key that came again did.
func (in *Input) ImportManifest(onDup record.OnDuplicate) *manifest.Import {
	stats := in.Import.Stats
	return &manifest.Import{Inputs: []string{in.Arg}, Format: string(in.Kind), Records: stats.Records,
		Skipped: stats.Skipped, Duplicates: stats.Duplicates, OnDup: string(onDup)}
}

// DumpManifest returns the manifest section of a dump read: read records passed on and
// unsupported ones left out, and on top the records of keys that came again that its reading
// left out under onDup (Read.Duplicates).
func (in *Input) DumpManifest(read, unsupported uint64, onDup record.OnDuplicate) *manifest.Import {
	dups := in.Read.Duplicates
	return &manifest.Import{Inputs: []string{in.Arg}, Format: string(RDB), Records: read + dups, Skipped: unsupported,
		Duplicates: dups, OnDup: string(onDup)}
}

// SpecManifest returns the manifest section of a spec file's input: its path, text and
// parameters.
func (in *Input) SpecManifest() *manifest.SpecFile {
	return &manifest.SpecFile{File: in.Arg, YAML: string(in.Spec.Source), Params: in.Spec.Params}
}
