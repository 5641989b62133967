// Package input opens what rdbgen reads records from, behind one call, Open: a dump by its
// magic bytes (plain, gzip-compressed, or standard input), JSON (an array or JSON Lines, as
// rdb -c json writes), CSV, a spec file, or the built-in generated dataset. Every command that
// reads records (import, convert, load, inspect, verify) opens its input here, so that each
// kind is detected, spooled and named the same way everywhere.
//
// An Input is a record.Source that says what it is (Kind, Name, the file read and its Size)
// and is closed once read: Close removes what was spooled. A dump and a spooled input can be
// read more than once; standard input that was not spooled, once.
//
// A live server (redis://, rediss://) is an input of its own Kind, Live, read by package
// live; IsDump tells the inputs read as dumps.
package input

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/internal/objstore"
	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// Kind is the kind of an input, and the format Options.Format asks for.
type Kind string

// Kinds of input.
const (
	Auto    Kind = "auto"    // Options.Format: a dump by its magic bytes, else by the name, else by the first byte
	RDB     Kind = "rdb"     // a dump, plain or gzip-compressed
	JSON    Kind = "json"    // records as rdb -c json writes them: an array, or JSON Lines
	CSV     Kind = "csv"     // one record (or hash field) per row
	Spec    Kind = "spec"    // a spec file (YAML) of key families
	Dataset Kind = "dataset" // the built-in generated dataset (Options.Dataset)
)

// Formats lists the formats a file may be asked to be read as (Options.Format), for
// messages.
var Formats = []Kind{Auto, JSON, CSV, RDB}

// ValidFormat reports whether k is a format a file may be asked to be read as: one of
// Formats, or "" (Auto).
func ValidFormat(k Kind) bool {
	switch k {
	case "", Auto, JSON, CSV, RDB:
		return true
	}
	return false
}

// ErrFormat is wrapped by Open's error for a format it does not know.
var ErrFormat = errors.New("input: unknown format")

// Options configure Open. The zero value opens a file (or standard input for "-") by what
// it holds.
type Options struct {
	// Format is what the file holds: Auto (or ""), RDB, JSON, CSV, or Spec for a spec file.
	Format Kind
	// Stdin is what "-" reads. Default os.Stdin.
	Stdin io.Reader
	// Local asks for a dump in object storage as a local file (Path): it is downloaded into
	// TempDir, for a caller that gives the file to a server. Without it, an object is read
	// where it is, with GETs (OpenDump), and Path is empty.
	Local bool
	// TempDir is where standard input, or a gzip-compressed dump, is kept while it is read:
	// a dump so that the reader can read a long collection twice instead of holding it, JSON
	// or CSV when OnDuplicate is last, which reads it twice. Default os.TempDir().
	TempDir string
	// OnDuplicate is what a key that comes again in its database does (default error).
	OnDuplicate record.OnDuplicate
	// SkipInvalid skips malformed JSON or CSV records, counting them, instead of stopping;
	// a dump refuses it.
	SkipInvalid bool
	// BaseTime is the time a spec's TTLs and timestamps, and CSV's TTLs, count from.
	// Default: when Open is called.
	BaseTime time.Time
	// CSV configures the CSV reader; its BaseTime is BaseTime. Open refuses options no CSV
	// input takes (importer.CSVOptions.Check) whatever the input.
	CSV importer.CSVOptions
	// CSVOption names the flag of a CSV option given on the command line (key-column, db…),
	// or is empty: an input that is not CSV refuses it, naming it.
	CSVOption string
	// Decoder configures the reader of a dump; its OnDuplicate is OnDuplicate.
	Decoder decoder.Options
	// SpecParams, if not nil, changes the parameters a spec file gives itself (seed, count
	// scale, base time) before its records are made.
	// The base time is set already.
	SpecParams func(*spec.Params)
	// Dataset, if not nil, is the input: the built-in dataset, opened with an empty name.
	Dataset *dataset.Config
	// Live configures the reading of a live server (Via, TLS, Notice, Progress); its
	// Decoder is Decoder.
	Live live.Options
	// Cluster reads a live server as a node of a Redis Cluster: every primary of the
	// cluster, one after another (live.OpenCluster). An input that is no live server
	// refuses it.
	Cluster bool
}

// An Input is an opened input: the record.Source of its records, and what it is.
type Input struct {
	record.Source
	// Kind is what the input is.
	Kind Kind
	// Arg is the argument it was opened from: a path, "-" for standard input, a live
	// server's URL without its password, or empty for the dataset. Name is what messages
	// call it: the path, "stdin", the URL without its password, or "the dataset".
	Arg, Name string
	// Path is the file read: Arg, or the temporary file standard input or a compressed dump
	// was kept in (Spooled); empty for a generated source and unspooled standard input.
	Path    string
	Spooled bool
	remote  bool            // an object in object storage, read by its URL
	object  objstore.Object // the object, when remote
	gzip    bool            // the object is gzip-compressed
	ctx     context.Context // what the object is read under
	// Size is the size in bytes of the dump as it is read: of Path, or of an object that is
	// not compressed; else 0.
	Size int64
	// Spec is a spec file's records; Dataset the built-in dataset's; Import the JSON or CSV
	// reader, whose Stats count the last reading. Nil for other kinds.
	Spec    *spec.Spec
	Dataset *dataset.Config
	Import  *importer.Source
	// Read counts what the last reading of a dump saw (duplicates, skipped module values).
	Read decoder.Stats
	// OnDuplicate is what a key that came again in a file did (Options.OnDuplicate).
	OnDuplicate record.OnDuplicate
	// Server is a live server's source (Kind Live), nil for other kinds and a cluster.
	Server *live.Source
	// Cluster is a live cluster's source (Kind Live, Options.Cluster), nil otherwise.
	Cluster *live.ClusterSource

	closers []func()
}

// Open opens the input arg names ("-": standard input) as opts say, and reads nothing but
// what tells its kind: a dump by its magic bytes ("REDIS", once gzip is undone), JSON or CSV
// by the name (.json, .jsonl, .ndjson, .csv, .tsv, with or without .gz), else by the first
// byte. Close it once read. Errors name the input.
func Open(ctx context.Context, arg string, opts Options) (*Input, error) {
	if opts.BaseTime.IsZero() {
		opts.BaseTime = time.Now()
	}
	opts.CSV.BaseTime = opts.BaseTime
	if err := opts.CSV.Check(); err != nil {
		return nil, err
	}
	switch {
	case opts.Dataset != nil:
		if arg != "" {
			return nil, fmt.Errorf("input: the dataset and %q both name the records", arg)
		}
		return &Input{Source: opts.Dataset, Kind: Dataset, Name: "the dataset", Dataset: opts.Dataset}, nil
	case opts.Format == Spec:
		return openSpec(ctx, arg, opts)
	case !ValidFormat(opts.Format):
		return nil, fmt.Errorf("%w %q (known: auto, json, csv, rdb)", ErrFormat, opts.Format)
	}
	if live.IsURL(arg) {
		return openLive(ctx, arg, opts)
	}
	if opts.Cluster {
		return nil, fmt.Errorf("input: %s is no live server: only a live server is read as a cluster", nameOf(arg))
	}
	return openFile(ctx, arg, opts)
}

// Close releases the input: it removes a spooled copy and closes standard input's reader.
func (in *Input) Close() error {
	for i := len(in.closers) - 1; i >= 0; i-- {
		in.closers[i]()
	}
	in.closers = nil
	return nil
}

// Err names the input in err when it is about one of its records (a JSON or CSV line);
// other errors come back as they are. A dump's reader names its file itself.
func (in *Input) Err(err error) error {
	if err == nil || in.Import == nil {
		return err
	}
	var le *importer.LineError
	if errors.As(err, &le) || strings.HasPrefix(err.Error(), "line ") {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return err
}

// Len returns the number of records when the source knows it up front, else 0.
func (in *Input) Len() uint64 {
	if s, ok := in.Source.(record.Sizer); ok {
		return s.Len()
	}
	return 0
}

// openSpec opens the spec file at path.
func openSpec(ctx context.Context, path string, opts Options) (*Input, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	s, err := spec.ParseContext(ctx, path, text)
	if err != nil {
		return nil, err
	}
	p := s.Params
	p.BaseTimeMS = opts.BaseTime.UnixMilli()
	if opts.SpecParams != nil {
		opts.SpecParams(&p)
	}
	if err := s.SetParamsContext(ctx, p); err != nil {
		return nil, err
	}
	return &Input{Source: s, Kind: Spec, Arg: path, Name: path, Path: path, Size: int64(len(text)), Spec: s}, nil
}

// refuse refuses the options that do not apply to the input's kind: CSVOption to JSON and
// dumps, SkipInvalid to dumps. Its errors name them by rdbgen's flags.
func (o *Options) refuse(in *Input) error {
	what := "JSON, whose records give their own db and type"
	switch {
	case in.Kind == CSV:
		return nil
	case in.IsDump() && o.SkipInvalid:
		return fmt.Errorf("--skip-invalid applies to JSON and CSV input only, and %s is a dump", in.Name)
	case in.IsDump():
		what = "a dump"
	}
	if o.CSVOption != "" {
		return fmt.Errorf("--%s applies to CSV input only, and %s is %s", o.CSVOption, in.Name, what)
	}
	return nil
}

// nameOf returns what messages call the argument arg.
func nameOf(arg string) string {
	if arg == "-" {
		return "stdin"
	}
	return arg
}
