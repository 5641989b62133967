package encoder

// A header is the start of the file up to the first database's first record: the magic and
// AUX fields, which NewWriter builds, then the first database's SELECTDB and RESIZEDB. With
// Options.HeaderLast the Writer holds it back and builds it on Close, when the counts of the
// first database are known.
type header struct {
	last    bool   // Options.HeaderLast
	fixed   []byte // the magic and AUX fields
	firstDB int    // the first database opened with last set, -1 before
	done    []byte // the whole header, once Close has built it
}

// finish builds the whole header, with a RESIZEDB hint of the keys the first database got
// (dbs are the Writer's DBs).
func (h *header) finish(dbs map[int]DBInfo) {
	h.done = h.fixed
	if h.firstDB >= 0 {
		h.done = appendDB(h.done, h.firstDB, dbs[h.firstDB])
	}
}

// Header returns the file's header with Options.HeaderLast, once Close has built it: the
// bytes that go in front of those the Writer wrote to the destination. It is nil before
// Close, after a failed Close, and without Options.HeaderLast.
func (w *Writer) Header() []byte { return w.head.done }

// HeaderLen returns the length of the header of a file whose first database is db with
// info's counts: with Options.HeaderLast, the room to leave in front of the records when
// the counts are known or predicted. The length depends on the counts only through the
// size of their encodings (1, 2, 5 or 9 bytes each, from 64, 16384 and 2³² on).
func (w *Writer) HeaderLen(db int, info DBInfo) int {
	return len(w.head.fixed) + len(appendDB(make([]byte, 0, 32), db, info))
}
