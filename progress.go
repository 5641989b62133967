package rdbgen

import (
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// progressEvery is how many records and members pass between progress reports.
const progressEvery = 1 << 16

// A progressSink passes every call to its Sink and, every progressEvery records and
// members, reports the counts that stats returns. It costs one counter increment per call.
type progressSink struct {
	record.Sink
	stats  func() encoder.Stats
	total  uint64 // records in all, 0 when unknown
	report func(record.Progress)
	ticks  int
}

// withProgress returns sink, wrapped to report to report (if not nil) the counts that stats
// returns, out of the source's size when it knows it.
func withProgress(sink record.Sink, src record.Source, stats func() encoder.Stats, report func(record.Progress)) (record.Sink, func()) {
	if report == nil {
		return sink, func() {}
	}
	p := &progressSink{Sink: sink, stats: stats, report: report}
	if s, ok := src.(record.Sizer); ok {
		p.total = s.Len()
	}
	return p, p.send
}

// send reports the counts so far.
func (p *progressSink) send() {
	s := p.stats()
	p.report(record.Progress{Keys: s.Keys, Total: p.total, Members: s.Members, Bytes: s.Bytes})
}

// tick counts a call, and every progressEvery of them reports.
func (p *progressSink) tick() {
	if p.ticks++; p.ticks >= progressEvery {
		p.ticks = 0
		p.send()
	}
}

// WriteString writes a string record.
func (p *progressSink) WriteString(key, value []byte, expireAtMS int64) error {
	p.tick()
	return p.Sink.WriteString(key, value, expireAtMS)
}

// AddField adds a hash field.
func (p *progressSink) AddField(field, value []byte) error {
	p.tick()
	return p.Sink.AddField(field, value)
}

// AddElement adds a list element.
func (p *progressSink) AddElement(element []byte) error {
	p.tick()
	return p.Sink.AddElement(element)
}

// AddMember adds a set member.
func (p *progressSink) AddMember(member []byte) error {
	p.tick()
	return p.Sink.AddMember(member)
}

// AddScoredMember adds a sorted-set member.
func (p *progressSink) AddScoredMember(member []byte, score float64) error {
	p.tick()
	return p.Sink.AddScoredMember(member, score)
}

// AddFieldWithTTL adds a hash field that may expire.
func (p *progressSink) AddFieldWithTTL(field, value []byte, expireAtMS int64) error {
	p.tick()
	return p.Sink.AddFieldWithTTL(field, value, expireAtMS)
}

// AddStreamEntry adds a stream entry.
func (p *progressSink) AddStreamEntry(id record.StreamID, fields [][]byte) error {
	p.tick()
	return p.Sink.AddStreamEntry(id, fields)
}
