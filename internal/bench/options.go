package bench

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// Snapshot is the name of the snapshot path in [Options.Methods]: generate
// the file, then start a server on it.
const Snapshot = "snapshot"

// Defaults of [Options].
var (
	// DefaultMethods are every online method, redis-cli --pipe, then the snapshot path.
	DefaultMethods = []string{
		string(loader.Sequential), string(loader.Parallel), string(loader.Pipeline), string(loader.Mass), CLIPipe, Snapshot,
	}
	// DefaultWorkers is the classic thread sweep of the parallel method.
	DefaultWorkers = []int{1, 5, 50, 100, 500}
)

// ErrInvalidOption is wrapped by the errors [Run] returns for bad options.
var ErrInvalidOption = errors.New("invalid bench option")

// Options configures [Run]. The zero value runs every row once against
// servers started the way server.Options' zero value starts them.
type Options struct {
	// Methods selects the rows: loader methods and Snapshot, run in the
	// order of DefaultMethods whatever their order here. Default:
	// DefaultMethods.
	Methods []string
	// Workers are the worker counts of the parallel rows, one row each.
	// Default: DefaultWorkers.
	Workers []int
	// Batch is the pipeline row's batch. Default: loader.DefaultBatch.
	Batch int
	// Repeat is the number of runs of each row; a row shows their median.
	// Runs go round the rows, so that a slow spell of the machine does not
	// fall on one row only. Default: 1.
	Repeat int
	// Server starts each fresh server: its backend, image, executable.
	// Default: server.Options' zero value.
	Server server.Options
	// RedisCLI is the path of redis-cli, for the CLIPipe row. Default: redis-cli
	// from PATH; the row fails when there is none.
	RedisCLI string
	// Input describes the source in the report, e.g. "spec examples/sessions.yaml".
	// Default: "".
	Input string
	// Dir holds the dump files while the bench runs. Default: a new
	// temporary directory, removed at the end.
	Dir string
	// Progress, if not nil, is called as runs start, and while keys are
	// loaded or written (Keys of Total), with the row, run and stage as its
	// Stage (RunStage). Default: nil.
	Progress func(record.Progress)
}

// withDefaults returns o with its zero fields set to their defaults, or an
// error naming the first field out of range.
func (o Options) withDefaults() (Options, error) {
	bad := func(format string, args ...any) (Options, error) {
		return o, fmt.Errorf("%w: %s", ErrInvalidOption, fmt.Sprintf(format, args...))
	}
	if len(o.Methods) == 0 {
		o.Methods = DefaultMethods
	}
	for _, m := range o.Methods {
		if !slices.Contains(DefaultMethods, m) {
			return bad("method %q (known: %s)", m, strings.Join(DefaultMethods, ", "))
		}
	}
	if len(o.Workers) == 0 {
		o.Workers = DefaultWorkers
	}
	o.Workers = slices.Compact(slices.Sorted(slices.Values(o.Workers)))
	for _, w := range o.Workers {
		if w < 1 || w > loader.MaxWorkers {
			return bad("workers %d out of range (1 to %d)", w, loader.MaxWorkers)
		}
	}
	if o.Batch == 0 {
		o.Batch = loader.DefaultBatch
	}
	if o.Batch < 1 || o.Batch > loader.MaxBatch {
		return bad("batch %d out of range (1 to %d)", o.Batch, loader.MaxBatch)
	}
	if o.Repeat == 0 {
		o.Repeat = 1
	}
	if o.Repeat < 1 {
		return bad("repeat %d is not positive", o.Repeat)
	}
	if o.Server.Container != "" {
		return bad("each run needs a fresh server, not the container %s", o.Server.Container)
	}
	return o, nil
}

// spec is one online row to measure.
type spec struct {
	method  loader.Method
	workers int
	batch   int
}

// specs returns the online rows o selects, in table order.
func (o Options) specs() []spec {
	var specs []spec
	for _, m := range loader.Methods() {
		if !slices.Contains(o.Methods, string(m)) {
			continue
		}
		switch m {
		case loader.Parallel:
			for _, w := range o.Workers {
				specs = append(specs, spec{m, w, 1})
			}
		case loader.Pipeline:
			specs = append(specs, spec{m, 1, o.Batch})
		default:
			specs = append(specs, spec{m, 1, 1})
		}
	}
	return specs
}
