package record

import "github.com/rdbgen/rdbgen/encoder"

// Discard is a Sink that drops every record: where a reader sends the records it leaves out.
type Discard struct{}

// BeginDB drops it.
func (Discard) BeginDB(int, encoder.DBInfo) error { return nil }

// WriteString drops it.
func (Discard) WriteString([]byte, []byte, int64) error { return nil }

// BeginHash drops it.
func (Discard) BeginHash([]byte, uint64, int64) error { return nil }

// BeginList drops it.
func (Discard) BeginList([]byte, uint64, int64) error { return nil }

// BeginSet drops it.
func (Discard) BeginSet([]byte, uint64, int64) error { return nil }

// BeginZSet drops it.
func (Discard) BeginZSet([]byte, uint64, int64) error { return nil }

// AddField drops it.
func (Discard) AddField([]byte, []byte) error { return nil }

// AddElement drops it.
func (Discard) AddElement([]byte) error { return nil }

// AddMember drops it.
func (Discard) AddMember([]byte) error { return nil }

// AddScoredMember drops it.
func (Discard) AddScoredMember([]byte, float64) error { return nil }

// BeginHashWithFieldTTL drops it.
func (Discard) BeginHashWithFieldTTL([]byte, uint64, int64, int64) error { return nil }

// AddFieldWithTTL drops it.
func (Discard) AddFieldWithTTL([]byte, []byte, int64) error { return nil }

// BeginStream drops it.
func (Discard) BeginStream([]byte, int64) error { return nil }

// AddStreamEntry drops it.
func (Discard) AddStreamEntry(StreamID, [][]byte) error { return nil }

// SetStreamMeta drops it.
func (Discard) SetStreamMeta(StreamMeta) error { return nil }

// AddStreamGroup drops it.
func (Discard) AddStreamGroup(*StreamGroup) error { return nil }

// EndCollection drops it.
func (Discard) EndCollection() error { return nil }

var _ Sink = Discard{}

// WriteFunction drops a function library.
func (Discard) WriteFunction([]byte) error { return nil }
