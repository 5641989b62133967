package rdbgen

import (
	"io"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// progressEvery is how many records and members pass between progress reports of a
// progressSink.
const progressEvery = 1 << 16

// A progress reports the counts that stats returns to report, out of the source's size
// when it knows it. RDB files report after every write of their encoder's buffer
// (progressWriter), which costs nothing per record; RESP streams count records
// (progressSink).
type progress struct {
	stats  func() encoder.Stats
	total  uint64 // records in all, 0 when unknown
	report func(record.Progress)
}

// newProgress returns the progress of src for report, or nil when report is nil. Its stats
// are set once the writer that has them exists.
func newProgress(src record.Source, report func(record.Progress)) *progress {
	if report == nil {
		return nil
	}
	p := &progress{report: report}
	if s, ok := src.(record.Sizer); ok {
		p.total = s.Len()
	}
	return p
}

// send reports the counts so far; a nil progress does nothing.
func (p *progress) send() {
	if p == nil {
		return
	}
	s := p.stats()
	p.report(record.Progress{Keys: s.Keys, Total: p.total, Members: s.Members, Bytes: s.Bytes})
}

// writer returns dst, wrapped to report after every write when p is not nil. A
// cluster.File stays one, so that a split can fill in its headers.
func (p *progress) writer(dst io.Writer) io.Writer {
	if p == nil {
		return dst
	}
	if f, ok := dst.(cluster.File); ok {
		return &progressFile{File: f, w: progressWriter{Writer: f, p: p}}
	}
	return &progressWriter{Writer: dst, p: p}
}

// A progressWriter passes writes to its Writer and reports after each: an encoder writes
// once its buffer fills.
type progressWriter struct {
	io.Writer
	p *progress
}

// Write writes b and reports.
func (w *progressWriter) Write(b []byte) (int, error) {
	n, err := w.Writer.Write(b)
	w.p.send()
	return n, err
}

// A progressFile is a cluster.File whose writes go through a progressWriter.
type progressFile struct {
	cluster.File
	w progressWriter
}

// Write writes b and reports.
func (f *progressFile) Write(b []byte) (int, error) { return f.w.Write(b) }

// A progressSink passes every call on and, every progressEvery strings and members,
// reports. It costs one counter increment per string and member.
type progressSink struct {
	record.Pass
	p     *progress
	ticks int
}

// withProgress returns sink, wrapped to report to report (if not nil) the counts that stats
// returns, out of the source's size when it knows it, and the function that reports at the
// end.
func withProgress(sink record.Sink, src record.Source, stats func() encoder.Stats, report func(record.Progress)) (record.Sink, func()) {
	p := newProgress(src, report)
	if p == nil {
		return sink, func() {}
	}
	p.stats = stats
	return &progressSink{Pass: record.Pass{Next: sink}, p: p}, p.send
}

// tick counts a string or member, and every progressEvery of them reports.
func (p *progressSink) tick() {
	if p.ticks++; p.ticks >= progressEvery {
		p.ticks = 0
		p.p.send()
	}
}

// Begin counts a string or module value and passes the key on.
func (p *progressSink) Begin(h *record.Header) error {
	if h.Type.Whole() {
		p.tick()
	}
	return p.Next.Begin(h)
}

// Add counts a member and passes it on.
func (p *progressSink) Add(m *record.Member) error {
	p.tick()
	return p.Next.Add(m)
}
