package input

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/internal/objstore"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// openFile opens the file at arg, standard input for "-", or an object by its URL
// (objstore.IsURL): a dump, JSON or CSV.
func openFile(ctx context.Context, arg string, opts Options) (*Input, error) {
	in := &Input{Arg: arg, Name: nameOf(arg), OnDuplicate: opts.OnDuplicate}
	stdin := opts.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	path := arg
	if objstore.IsURL(arg) {
		obj, err := objstore.Parse(arg, false)
		if err != nil {
			return nil, err
		}
		body, err := obj.Open(ctx)
		if err != nil {
			return nil, err
		}
		in.Name, in.remote, in.object = obj.URL, true, obj
		in.closers = append(in.closers, func() { body.Close() })
		path, stdin = "-", body
	}
	r, err := importer.Open(path, stdin) // gzip undone
	if err != nil {
		in.Close()
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	in.closers = append(in.closers, func() { r.Close() })
	kind := opts.Format
	if kind == "" || kind == Auto {
		switch {
		case hasMagic(r):
			kind = RDB
		case importer.DetectFormat(arg, r) == importer.FormatJSON:
			kind = JSON
		default:
			kind = CSV
		}
	}
	in.Kind = kind
	err = opts.refuse(in) // before a byte is spooled
	if err == nil && kind == RDB {
		err = in.openDump(ctx, r, opts)
	} else if err == nil {
		err = in.openRecords(ctx, r, opts)
	}
	if err != nil {
		in.Close()
		return nil, err
	}
	return in, nil
}

// streamed tells whether the input is read as a stream, standard input or an object, rather
// than a file that can be opened again.
func (in *Input) streamed() bool { return in.Arg == "-" || in.remote }

// hasMagic tells whether r starts with an RDB file's magic bytes, "REDIS" or "VALKEY".
func hasMagic(r *importer.Input) bool {
	br, ok := r.Reader.(*bufio.Reader)
	if !ok {
		return false
	}
	b, _ := br.Peek(6)
	return len(b) >= 5 && decoder.MagicError(b) == nil
}

// isGzip tells whether the file at path starts with gzip's magic bytes.
func isGzip(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [2]byte
	n, _ := io.ReadFull(f, b[:])
	return n == 2 && b[0] == 0x1f && b[1] == 0x8b
}

// openDump makes the input the dump r reads: the file itself; an object read where it is,
// again for each reading (OpenDump), unless opts.Local asks for a file; or, for standard
// input, a compressed file or an object opts.Local asks for, a temporary copy of what r
// gives, so that the reader may read at an offset (a long collection twice instead of
// holding it).
func (in *Input) openDump(ctx context.Context, r *importer.Input, opts Options) error {
	switch {
	case in.remote && !opts.Local:
		return in.openObjectDump(ctx, r.Gzip, opts)
	case !in.streamed() && !isGzip(in.Arg):
		in.Path = in.Arg
	default:
		if err := in.spool(ctx, r, opts.TempDir, "rdbgen-input-*.rdb"); err != nil {
			return err
		}
	}
	if fi, err := os.Stat(in.Path); err == nil {
		in.Size = fi.Size()
	}
	dopts := opts.Decoder
	dopts.OnDuplicate = opts.OnDuplicate
	in.Source = &dump{in: in, opts: dopts}
	return nil
}

// openRecords makes the input the JSON or CSV records r reads, as they come. Read twice
// (OnDuplicate last), standard input or an object is kept in a temporary file first.
func (in *Input) openRecords(ctx context.Context, r *importer.Input, opts Options) error {
	if in.streamed() && opts.OnDuplicate == record.DupLast {
		if err := in.spool(ctx, r, opts.TempDir, "rdbgen-import-*"); err != nil {
			return err
		}
	} else if !in.streamed() {
		in.Path = in.Arg
	}
	if fi, err := os.Stat(in.Path); in.Path != "" && err == nil {
		in.Size = fi.Size()
	}
	csv := opts.CSV
	kind := in.Kind
	first := r // the reader opened already, used by the first reading
	open := func() (importer.Reader, error) {
		rd := first
		first = nil
		if rd == nil {
			if in.Path == "" {
				return nil, fmt.Errorf("%s can be read once", in.Name)
			}
			var err error
			if rd, err = importer.Open(in.Path, nil); err != nil {
				return nil, err
			}
			in.closers = append(in.closers, func() { rd.Close() })
		}
		if kind == CSV {
			return importer.NewCSVReader(rd, csv), nil
		}
		return importer.NewJSONReader(rd), nil
	}
	if in.Spooled {
		first = nil // the copy is read, from its start
	}
	in.Import = &importer.Source{Open: open, Options: importer.Options{OnDuplicate: opts.OnDuplicate, SkipInvalid: opts.SkipInvalid}}
	in.Source = in.Import
	return nil
}

// spool copies what r gives into a new temporary file in dir, the file the input reads from
// then, removed by Close.
func (in *Input) spool(ctx context.Context, r io.Reader, dir, pattern string) error {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return fmt.Errorf("keep %s in a temporary file: %w (set TMPDIR to a directory with room)", in.Name, err)
	}
	src := &readErr{r: r, ctx: ctx}
	_, err = io.Copy(f, src)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case src.err != nil:
			return fmt.Errorf("read %s: %w", in.Name, src.err)
		}
		return fmt.Errorf("keep %s in %s: %w (set TMPDIR to a directory with room)", in.Name, f.Name(), err)
	}
	in.Path, in.Spooled = f.Name(), true
	in.closers = append(in.closers, func() { os.Remove(f.Name()) })
	return nil
}

// readErr is a reader that keeps its source's error, and stops when ctx is done.
type readErr struct {
	r   io.Reader
	ctx context.Context
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// A dump is the source of a dump's records: its file, read again at every WriteTo.
type dump struct {
	in   *Input
	opts decoder.Options
}

// WriteTo reads every record of the dump into sink; errors about the dump name it, the
// sink's come back as they are.
func (d *dump) WriteTo(ctx context.Context, sink record.Sink) error {
	rd, err := d.in.DumpFile(d.opts).Read(ctx, sink)
	if rd != nil {
		d.in.Read = rd.Stats()
	}
	return err
}
