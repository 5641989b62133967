package output

import (
	"io"
	"sync/atomic"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A progress reports the counts that stats returns, out of *total records when it is known.
// RDB files report after every write of their encoder's buffer (a meter), which costs
// nothing per record; RESP streams count records (a tally).
type progress struct {
	report func(record.Progress)
	total  *uint64
	stats  func() encoder.Stats // set once the writer that has them exists
}

// newProgress returns the progress of report, or nil when report is nil.
func newProgress(report func(record.Progress), total *uint64) *progress {
	if report == nil {
		return nil
	}
	return &progress{report: report, total: total}
}

// send reports the counts so far; a nil progress, or one without stats yet, does nothing.
func (p *progress) send() {
	if p == nil || p.stats == nil {
		return
	}
	s := p.stats()
	p.report(record.Progress{Keys: s.Keys, Total: *p.total, Members: s.Members, Bytes: s.Bytes})
}

// A meter passes writes to w, counts their bytes and, with a progress, reports after each:
// an encoder writes once its buffer fills.
type meter struct {
	w io.Writer
	n atomic.Int64 // read by Output.Written while a split writes
	p *progress
}

// Write writes b and reports.
func (m *meter) Write(b []byte) (int, error) {
	n, err := m.w.Write(b)
	m.n.Add(int64(n))
	m.p.send()
	return n, err
}

// A meteredFile is a meter over a cluster.File that stays one, so that a split can fill in
// its header last. The header's bytes, written in place, are not counted again.
type meteredFile struct {
	cluster.File
	m *meter
}

// Write writes b and reports.
func (f *meteredFile) Write(b []byte) (int, error) { return f.m.Write(b) }

// metered returns w, counting and reporting through a meter; a cluster.File stays one.
func metered(w io.Writer, p *progress) (io.Writer, *meter) {
	m := &meter{w: w, p: p}
	if f, ok := w.(cluster.File); ok {
		return &meteredFile{File: f, m: m}, m
	}
	return m, m
}
