package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// A Summary is what an export did.
type Summary struct {
	Input     string  `json:"input"`
	Output    string  `json:"output"`
	Format    string  `json:"format"`
	Keys      uint64  `json:"keys"`
	Dropped   uint64  `json:"dropped"` // keys the filters left out
	Functions uint64  `json:"functions"`
	Bytes     int64   `json:"bytes"` // written
	Read      int64   `json:"read"`  // bytes of the dump
	Seconds   float64 `json:"seconds"`
	// NewerDropped counts what DumpOptions.Decoder.DropNewer (--drop-newer) left out
	// (decoder.Stats.NewerDropped).
	NewerDropped map[string]uint64 `json:"newer_dropped,omitempty"`
}

// WriteText writes s for people, as rdbgen export prints it.
func (s Summary) WriteText(w io.Writer) error {
	fns := ""
	if s.Functions > 0 {
		fns = fmt.Sprintf(" and %d function libraries", s.Functions)
		if s.Format == string(FormatCSV) {
			fns = fmt.Sprintf(" (%d function libraries left out: CSV has no values)", s.Functions)
		}
	}
	dropped := ""
	if s.Dropped > 0 {
		dropped = fmt.Sprintf(", %d left out by the filters", s.Dropped)
	}
	_, err := fmt.Fprintf(w, "exported %d keys%s%s from %s to %s (%s, %s) in %.2fs: %.0f keys/s, %.1f MB/s%s\n",
		s.Keys, fns, dropped, s.Input, s.Output, s.Format, human.Bytes(s.Bytes), s.Seconds,
		human.PerSecond(s.Keys, time.Duration(s.Seconds*float64(time.Second))), float64(s.Bytes)/1e6/max(s.Seconds, 1e-9),
		summary.NewerNotes(s.NewerDropped))
	return err
}

// DumpOptions are the options of Dump.
type DumpOptions struct {
	Options                   // the writer's
	Filter  filter.Options    // which keys are kept
	Memory  *memory.Estimator // the estimate of each key's memory
	Decoder decoder.Options   // the reader's (Progress counts the bytes read)
}

// Dump writes the records of the RDB file src reads from its start (name, in errors) that
// opts.Filter keeps to dst, each with its RDB encoding, its bytes in the file and its
// estimated memory, and returns the counts. A src that can be read at an offset (a file, an
// objstore.Source) lets a long list be read twice instead of held (decoder.NewReader). The
// summary's Output, Format and Seconds are the caller's.
func Dump(ctx context.Context, src io.Reader, name string, dst io.Writer, opts DumpOptions) (Summary, error) {
	s := Summary{Input: name}
	rd, err := decoder.NewReader(src, opts.Decoder)
	if err != nil {
		return s, fmt.Errorf("read %s: %w", name, err)
	}
	wopts, est := opts.Options, opts.Memory
	wopts.Detail = func(d *Detail) {
		d.Encoding, d.StreamVersion = RDBEncoding(rd.RecordType())
		d.Bytes = rd.Offset() - rd.RecordOffset()
		d.Memory = est.KeyBytes()
	}
	wopts.BufferSize = 4 << 20 // writes of 4 MiB: few system calls
	w, err := NewWriter(dst, wopts)
	if err != nil {
		return s, err
	}
	counted := &record.Count{Next: record.Tee(est, w)}
	fl, err := filter.New(counted, opts.Filter)
	if err != nil {
		return s, err
	}
	err = rd.WriteTo(ctx, fl)
	var de *decoder.Error
	switch {
	case errors.As(err, &de):
		return s, fmt.Errorf("read %s: %w", name, err)
	case err != nil:
		return s, err
	}
	if err := w.Close(); err != nil {
		return s, err
	}
	s.Keys, s.Functions, s.Bytes, s.Read = w.Keys(), counted.Functions, w.Written(), rd.Stats().Bytes
	s.Dropped, s.NewerDropped = fl.Stats().Dropped, rd.Stats().NewerDropped
	return s, nil
}
