package input

import (
	"context"
	"errors"
	"fmt"

	"github.com/rdbgen/rdbgen/dataset"
)

// A Request is the input a command's arguments and flags name, for OpenRequest: the file of
// Args (a path, "-" for standard input, or a live server), else the spec file of Spec, else
// the built-in dataset. The flags that go with one of them only are refused with the others;
// Given tells which were given, by rdbgen's flag names, which the errors use.
type Request struct {
	// Args are the command's arguments: at most one, the input file.
	Args []string
	// Spec is the spec file (--spec), or empty.
	Spec string
	// Dataset makes the built-in dataset from the flags, called when neither Args nor Spec
	// names the input.
	Dataset func() (*dataset.Config, error)
	// Given tells whether the flag name was given on the command line.
	Given func(name string) bool
	// DatasetFlags are the flags of the built-in dataset, which a spec file and an input file
	// refuse; FileFlags are those of reading an input file, which the others refuse.
	DatasetFlags, FileFlags []string
	// Options say how the input is read (a spec file's Format is Spec).
	Options
}

// OpenRequest opens the input req names, once its flags are checked, as Open does: the spec
// file, the input file, or the dataset. Close it once read.
func OpenRequest(ctx context.Context, req Request) (*Input, error) {
	switch {
	case len(req.Args) > 1:
		return nil, fmt.Errorf("one input file at most, got %d arguments", len(req.Args))
	case req.Spec != "" && len(req.Args) > 0:
		return nil, fmt.Errorf("--spec and the input %q both name the records: give one", req.Args[0])
	}
	if name := req.given(req.FileFlags); name != "" && len(req.Args) == 0 {
		return nil, fmt.Errorf("--%s goes with an input file", name)
	}
	if req.Spec == "" && req.Given("count-scale") {
		return nil, errors.New("--count-scale goes with --spec")
	}
	switch name := req.given(req.DatasetFlags); {
	case req.Spec != "" && name != "":
		return nil, fmt.Errorf("--%s does not go with --spec: the spec file describes the keys", name)
	case req.Spec != "":
		req.Format = Spec
		return Open(ctx, req.Spec, req.Options)
	case len(req.Args) == 1 && name != "":
		return nil, fmt.Errorf("--%s does not go with an input file: the file holds the records", name)
	case len(req.Args) == 1 && req.Given("seed"):
		return nil, errors.New("--seed does not go with an input file")
	case len(req.Args) == 1:
		return Open(ctx, req.Args[0], req.Options)
	case !req.Given("count"):
		return nil, errors.New("--count is required (the number of keys), or --spec FILE, or an input file")
	}
	d, err := req.Dataset()
	if err != nil {
		return nil, err
	}
	return Open(ctx, "", Options{Dataset: d})
}

// given returns the first of names that was given, or "".
func (req *Request) given(names []string) string {
	for _, name := range names {
		if req.Given(name) {
			return name
		}
	}
	return ""
}
