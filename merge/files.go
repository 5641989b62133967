package merge

import (
	"errors"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// Files returns the Source of the RDB files at paths, in order, each read with opts and
// named by its path; keys that come again are handled by opts.OnDuplicate. Standard input
// ("-") is refused: an input may be read twice.
func Files(paths []string, opts decoder.Options) (*Source, error) {
	src := &Source{OnDuplicate: opts.OnDuplicate}
	for _, p := range paths {
		if p == "-" {
			return nil, errors.New("merge reads files, not stdin: an input may be read twice")
		}
		src.Inputs = append(src.Inputs, Input{Name: p, Source: decoder.File{Path: p, Name: p, Options: opts}})
	}
	return src, nil
}

// Describe adds to m what the records of RDB files merged are (see Files): the inputs by
// name, the rule for keys that came again and the records it left out, once WriteTo returns.
func (s *Source) Describe(m *manifest.Manifest) {
	names := make([]string, len(s.Inputs))
	for i, in := range s.Inputs {
		names[i] = in.Name
	}
	m.Import = &manifest.Import{Inputs: names, Format: string(input.RDB), Duplicates: s.Duplicates, OnDup: string(s.OnDuplicate)}
}
