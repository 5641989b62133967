package decoder_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// offsetSink notes the reader's offsets at the end of each record.
type offsetSink struct {
	nopSink
	rd    *decoder.Reader
	spans [][3]int64 // record offset, end offset, type byte
}

func (s *offsetSink) note() {
	s.spans = append(s.spans, [3]int64{s.rd.RecordOffset(), s.rd.Offset(), int64(s.rd.RecordType())})
}

func (s *offsetSink) Begin(h *record.Header) error {
	if h.Type == record.String {
		s.note()
	}
	return s.nopSink.Begin(h)
}

func (s *offsetSink) End(t *record.StreamTail) error {
	s.note()
	return s.nopSink.End(t)
}

// RecordOffset and Offset frame each record, from its type byte to its end, expiry left out.
func TestRecordOffsets(t *testing.T) {
	str := cat([]byte{0}, rstr("k"), rstr("value"))                                // 9 bytes
	set := cat([]byte{2}, rstr("s"), []byte{2}, rstr("a"), rstr("b"))              // 8 bytes
	exp := cat([]byte{0xfc}, le64(1700000000000))                                  // expiry: 9 bytes
	q := cat([]byte{14}, rstr("q"), []byte{2}, blob(zl("a", "b")), blob(zl("#7"))) // quicklist
	file := rdbFile("0009", str, exp, set, q)
	rd, err := decoder.NewReader(bytes.NewReader(file), decoder.Options{MaxHeldBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := &offsetSink{rd: rd}
	if err := rd.WriteTo(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	start := int64(len("REDIS0009") + 2) // SELECTDB 0
	want := [][3]int64{
		{start, start + int64(len(str)), 0},
		{start + int64(len(str)+len(exp)), start + int64(len(str)+len(exp)+len(set)), 2},
		{start + int64(len(str)+len(exp)+len(set)), start + int64(len(str)+len(exp)+len(set)+len(q)), 14},
	}
	if len(s.spans) != len(want) {
		t.Fatalf("spans %v, want %v", s.spans, want)
	}
	for i := range want {
		if s.spans[i] != want[i] {
			t.Errorf("record %d: [offset, end, type] %v, want %v", i, s.spans[i], want[i])
		}
	}
}
