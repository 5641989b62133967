package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/record"
)

// A stream object of `rdb -c json` (model.StreamObject of github.com/hdt3213/rdb v1.1.0)
// holds its listpack nodes as "entries", each with its messages, deleted ones flagged;
// "groups" with their pending entries and consumers; and the metadata "len", "lastId",
// "firstId", "maxDeletedId" and "addedEntriesCount" (the last three from RDB 10). Ids are
// "ms-seq" strings, times Unix ms; an unknown entries-read or a never-active consumer is
// 2^64-1, as the file stores -1. The tool prints a message's fields as a JSON object, in no
// particular order; a message with the fields of its node's master entry (the node's
// "fields", the first entry's) gets them back in that order, which is that of every entry the
// server stores with the same fields. Other messages keep the order of the JSON.

// jsonStream is what a stream object holds beyond the base object.
type jsonStream struct {
	Version uint `json:"version"`
	Entries []struct {
		Fields []binString `json:"fields"` // the node's master fields, in order
		Msgs   []struct {
			ID      jsonStreamID `json:"id"`
			Fields  binHash      `json:"fields"`
			Deleted bool         `json:"deleted"`
		} `json:"msgs"`
	} `json:"entries"`
	Groups []struct {
		Name    binString    `json:"name"`
		LastID  jsonStreamID `json:"lastId"`
		Pending []struct {
			ID            jsonStreamID `json:"id"`
			DeliveryTime  uint64       `json:"deliveryTime"`
			DeliveryCount uint64       `json:"deliveryCount"`
		} `json:"pending"`
		Consumers []struct {
			Name       binString      `json:"name"`
			SeenTime   uint64         `json:"seenTime"`
			ActiveTime uint64         `json:"activeTime"`
			Pending    []jsonStreamID `json:"pending"`
		} `json:"consumers"`
		EntriesRead *uint64 `json:"entriesRead"`
	} `json:"groups"`
	Len          uint64       `json:"len"`
	LastID       jsonStreamID `json:"lastId"`
	FirstID      jsonStreamID `json:"firstId"`
	MaxDeletedID jsonStreamID `json:"maxDeletedId"`
	EntriesAdded uint64       `json:"addedEntriesCount"`
}

// A jsonStreamID is a stream id written "ms-seq".
type jsonStreamID record.StreamID

// UnmarshalJSON reads "ms-seq".
func (id *jsonStreamID) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf(`stream id %s: want "ms-seq"`, clip(data))
	}
	ms, seq, ok := strings.Cut(s, "-")
	a, err1 := strconv.ParseUint(ms, 10, 64)
	b, err2 := strconv.ParseUint(seq, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf(`stream id %q: want "ms-seq", two whole numbers`, s)
	}
	*id = jsonStreamID{Ms: a, Seq: b}
	return nil
}

// parseJSONStream fills the stream part of rec from one object; rec has its key, db, expiry
// and type.
func parseJSONStream(raw []byte, rec *record.Record) error {
	var o jsonStream
	if err := json.Unmarshal(raw, &o); err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	for _, node := range o.Entries {
		for _, m := range node.Msgs {
			if m.Deleted {
				continue
			}
			fields := make([][]byte, 0, 2*len(m.Fields.fields))
			for _, f := range inMasterOrder(m.Fields.fields, node.Fields) {
				fields = append(fields, f.Name, f.Value)
			}
			rec.Entries = append(rec.Entries, record.StreamEntry{ID: record.StreamID(m.ID), Fields: fields})
		}
	}
	rec.StreamMeta = record.StreamMeta{Length: o.Len, LastID: record.StreamID(o.LastID),
		FirstID: record.StreamID(o.FirstID), MaxDeletedID: record.StreamID(o.MaxDeletedID), EntriesAdded: o.EntriesAdded}
	for _, g := range o.Groups {
		sg := record.StreamGroup{Name: g.Name, LastID: record.StreamID(g.LastID), EntriesRead: -1}
		if g.EntriesRead != nil {
			sg.EntriesRead = int64(*g.EntriesRead) // 2^64-1 is -1, unknown
		} else if o.Version >= 2 {
			sg.EntriesRead = 0 // printed only when not 0
		}
		for _, p := range g.Pending {
			sg.Pending = append(sg.Pending, record.StreamPending{ID: record.StreamID(p.ID),
				DeliveryTimeMS: int64(p.DeliveryTime), DeliveryCount: p.DeliveryCount})
		}
		for _, c := range g.Consumers {
			sc := record.StreamConsumer{Name: c.Name, SeenTimeMS: int64(c.SeenTime), ActiveTimeMS: int64(c.ActiveTime)}
			if o.Version < 3 {
				sc.ActiveTimeMS = sc.SeenTimeMS // as servers load files before RDB 11
			}
			for _, id := range c.Pending {
				sc.Pending = append(sc.Pending, record.StreamID(id))
			}
			sg.Consumers = append(sg.Consumers, sc)
		}
		rec.Groups = append(rec.Groups, sg)
	}
	return nil
}

// inMasterOrder returns fields in the order of master when they are master's fields, each
// once; else fields as they are.
func inMasterOrder(fields []record.Member, master []binString) []record.Member {
	if len(fields) != len(master) {
		return fields
	}
	out := make([]record.Member, 0, len(fields))
	for _, name := range master {
		k := slices.IndexFunc(fields, func(m record.Member) bool { return bytes.Equal(m.Name, name) })
		if k < 0 {
			return fields
		}
		out = append(out, fields[k])
	}
	return out
}
