package encoder

import "fmt"

// The per-key calls by kind, for tests that open a key of a kind they name (with a Writer
// or a PayloadWriter's).

// keyType names a kind of key in tests.
type keyType string

// Kinds of key.
const (
	tHash keyType = "hash"
	tList keyType = "list"
	tSet  keyType = "set"
	tZSet keyType = "zset"
)

func sinkString(w *Writer, key, value []byte, expireAtMS int64) error {
	return w.WriteString(key, value, expireAtMS)
}

// sinkOpen opens a collection of type t.
func sinkOpen(w *Writer, t keyType, key []byte, n uint64, expireAtMS int64) error {
	switch t {
	case tHash:
		return w.BeginHash(key, n, expireAtMS)
	case tList:
		return w.BeginList(key, n, expireAtMS)
	case tSet:
		return w.BeginSet(key, n, expireAtMS)
	case tZSet:
		return w.BeginZSet(key, n, expireAtMS)
	}
	panic(fmt.Sprintf("sinkOpen: type %q", t))
}

func sinkOpenTTL(w *Writer, key []byte, n uint64, expireAtMS, minFieldExpireAtMS int64) error {
	return w.BeginHashTTL(key, n, expireAtMS, minFieldExpireAtMS)
}

func sinkStream(w *Writer, key []byte, expireAtMS int64) error {
	return w.BeginStream(key, expireAtMS)
}

// sinkAdd adds a list element or a set member, whichever is open.
func sinkAdd(w *Writer, name []byte) error {
	if w.coll.kind == setCollection {
		return w.AddMember(name)
	}
	return w.AddElement(name)
}

func sinkField(w *Writer, name, value []byte) error { return w.AddField(name, value, 0) }

func sinkFieldTTL(w *Writer, name, value []byte, expireAtMS int64) error {
	return w.AddField(name, value, expireAtMS)
}

func sinkScored(w *Writer, name []byte, score float64) error {
	return w.AddScoredMember(name, score)
}

func sinkEntry(w *Writer, id StreamID, fields [][]byte) error {
	return w.AddStreamEntry(id, fields)
}

func sinkEnd(w *Writer) error { return w.End() }

// sinkEndStream ends a stream with its metadata and groups.
func sinkEndStream(w *Writer, meta StreamMeta, groups ...StreamGroup) error {
	if err := w.SetStreamMeta(meta); err != nil {
		return err
	}
	for i := range groups {
		if err := w.AddStreamGroup(&groups[i]); err != nil {
			return err
		}
	}
	return w.End()
}
