package output

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/internal/gz"
	"github.com/rdbgen/rdbgen/internal/objstore"
	"github.com/rdbgen/rdbgen/internal/pipe"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// File starts the file at path ("-": Options.Stdout): an RDB file written with
// opts.Encoder, with its manifest (see Options.Manifest), or with opts.RESP the commands
// that make the records. The options are checked first, then the paths: unless opts.Force
// is set, an existing file or manifest is an error wrapping ErrExists. Nothing
// appears at path before Commit, unless path is standard output, a FIFO or a device.
func File(path string, opts Options) (*Output, error) {
	now := time.Now()
	opts = stamped(opts, now)
	f := &fileOut{path: path, opts: opts, total: opts.Total, start: now}
	f.meter = &meter{p: newProgress(opts.Progress, &f.total)}
	if err := f.newSink(); err != nil {
		return nil, err
	}
	if path == "-" {
		if err := f.toStdout(); err != nil {
			return nil, err
		}
		return newOutput(f, path, &f.total, true), nil
	}
	remote := objstore.IsURL(path)
	stream := !remote && atomicfile.IsStream(path)
	switch {
	case opts.NoManifest || opts.RESP != nil:
		f.manifest = ""
	case opts.Manifest != "":
		f.manifest = opts.Manifest
	case remote:
		f.manifest = objstore.WithSuffix(path, manifest.Suffix)
	case !stream: // a FIFO or a device is written into as a stream: no sidecar unless asked for
		f.manifest = manifest.PathFor(path)
	}
	if !remote && objstore.IsURL(f.manifest) {
		return nil, fmt.Errorf("the manifest %s is an object, and %s a local file: give the manifest a local path", f.manifest, path)
	}
	if opts.KeepOwner && !remote {
		f.replaced, _ = os.Stat(path) // nothing to keep when there is no file
	}
	var tmp placer
	var err error
	if remote {
		tmp, err = createObject(path, f.manifest, opts.Force)
	} else {
		tmp, err = createFile(path, f.manifest, opts.Force)
	}
	if err != nil {
		return nil, err
	}
	if gz.Named(path) && !stream {
		tmp = compressed(tmp)
	}
	f.tmp, f.meter.w = tmp, tmp
	return newOutput(f, path, &f.total, stream), nil
}

// A fileOut is one file being written.
type fileOut struct {
	path     string
	opts     Options
	start    time.Time
	total    uint64
	meter    *meter          // the destination, counting and reporting
	enc      *rdbsink.Writer // an RDB file's writer; nil for RESP
	resp     *tally          // RESP's counts; nil for an RDB file
	respW    *resp.Writer
	snk      record.Sink
	tmp      placer      // nil for standard output
	manifest string      // the manifest's path; empty for none
	replaced os.FileInfo // with KeepOwner, the file replaced; nil for none
}

// newSink makes the writer of the records, which checks the options: nothing reaches the
// destination, still to be opened, before its buffer fills.
func (f *fileOut) newSink() error {
	if f.opts.RESP == nil {
		w, err := rdbsink.NewWriter(f.meter, f.opts.Encoder)
		if err != nil {
			return err
		}
		f.enc, f.snk = w, w
		if f.meter.p != nil {
			f.meter.p.stats = w.Stats
		}
		return nil
	}
	w, err := resp.NewWriter(f.meter, *f.opts.RESP)
	if err != nil {
		return err
	}
	f.respW = w
	f.resp = &tally{Count: record.Count{Next: w}, meter: f.meter, p: f.meter.p}
	f.meter.p = nil // RESP reports by records, not by writes
	if f.resp.p != nil {
		f.resp.p.stats = f.resp.stats
	}
	f.snk = f.resp
	return nil
}

// toStdout makes the destination standard output, with a manifest only when one is named.
func (f *fileOut) toStdout() error {
	if !f.opts.NoManifest && f.opts.RESP == nil && f.opts.Manifest != "" {
		if err := checkManifestAt(context.Background(), f.opts.Manifest, f.opts.Force); err != nil {
			return fmt.Errorf("manifest: %w", err)
		}
		f.manifest = f.opts.Manifest
	}
	f.meter.w = f.opts.Stdout
	if f.meter.w == nil {
		f.meter.w = os.Stdout
	}
	bufSize := f.opts.Encoder.BufferSize
	if bufSize == 0 {
		bufSize = encoder.DefaultBufferSize
	}
	pipe.Grow(f.meter.w, bufSize)
	return nil
}

func (f *fileOut) sink() record.Sink                            { return f.snk }
func (f *fileOut) prepare(context.Context, record.Source) error { return nil }
func (f *fileOut) written() int64                               { return f.meter.n.Load() }

func (f *fileOut) abort() {
	if f.tmp != nil {
		f.tmp.Abort()
	}
}

func (f *fileOut) commit(describe func(*manifest.Manifest)) (*Result, error) {
	if f.resp != nil {
		return f.commitRESP()
	}
	if err := f.enc.Close(); err != nil {
		return nil, err
	}
	f.meter.p.send()
	res := &Result{Path: f.path, Stats: f.enc.Stats(), DBs: f.enc.DBs(), Target: f.enc.Target().Name, RDBVersion: f.enc.RDBVersion(),
		Duration: time.Since(f.start)}
	m := newManifest(f.opts.Encoder, res.Target, res.RDBVersion, res.Stats, res.DBs)
	if describe != nil {
		describe(m)
	}
	if err := f.place(m); err != nil {
		return nil, err
	}
	res.Manifest = f.manifest
	if f.tmp != nil {
		res.Stale = f.tmp.Stale()
	}
	return res, nil
}

// place puts the file in place with m as its manifest; standard output gets its manifest
// (if any) alone.
func (f *fileOut) place(m *manifest.Manifest) error {
	if f.tmp == nil {
		if f.manifest == "" {
			return nil
		}
		if err := writeManifestAt(context.Background(), f.manifest, m); err != nil {
			return fmt.Errorf("wrote %s but not its manifest: %w", f.path, err)
		}
		return nil
	}
	if err := f.tmp.Commit(m); err != nil {
		return err
	}
	if f.replaced != nil {
		if err := keepOwner(f.path, f.replaced); err != nil {
			return fmt.Errorf("keep the owner of %s: %w", f.path, err)
		}
	}
	return nil
}

func (f *fileOut) commitRESP() (*Result, error) {
	if err := f.respW.Close(); err != nil {
		return nil, err
	}
	f.resp.p.send()
	took := time.Since(f.start)
	if err := f.place(nil); err != nil {
		return nil, err
	}
	// The server the commands are for: the target named, else the default one.
	target := f.opts.Encoder.Target
	if t, err := rdb.LookupTarget(target); err == nil {
		target = t.Name
	}
	res := &Result{Path: f.path, Stats: f.resp.stats(), DBs: f.resp.DBs(), Target: target,
		Commands: f.respW.Count(), Streams: f.respW.StreamCounts(), Duration: took}
	if f.tmp != nil {
		res.Stale = f.tmp.Stale()
	}
	return res, nil
}
