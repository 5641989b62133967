package importer

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rdbgen/rdbgen/record"
)

// A stream object of `rdb -c json` (model.StreamObject of github.com/hdt3213/rdb v1.1.0)
// holds its listpack nodes as "entries", each with its master "fields" and its "msgs",
// deleted ones flagged; "groups" with their pending entries and consumers; and the metadata
// "len", "lastId", "firstId", "maxDeletedId" and "addedEntriesCount" (the last three from
// RDB 10). Ids are "ms-seq" strings, times Unix ms; an unknown entries-read or a never-active
// consumer is 2^64-1, as the file stores -1. The tool prints a message's fields as a JSON
// object, in no particular order; a message with the fields of its node's master entry (the
// first entry's) gets them back in that order, which is that of every entry the server stores
// with the same fields. Other messages keep the order of the JSON.

// parseJSONStream fills the stream part of rec from the object raw; rec has its key, db,
// expiry and type.
func parseJSONStream(raw []byte, rec *record.Record) error {
	version := uint64(0)
	var groups []byte
	err := eachField(raw, func(name, value []byte) error {
		var err error
		m := &rec.Stream.Meta
		switch string(name) {
		case "version":
			version, err = jsonUint(value)
		case "entries":
			err = eachElement(value, func(node []byte) error { return appendStreamNode(rec, node) })
		case "groups":
			groups = value
		case "len":
			m.Length, err = jsonUint(value)
		case "lastId":
			m.LastID, err = jsonStreamID(value)
		case "firstId":
			m.FirstID, err = jsonStreamID(value)
		case "maxDeletedId":
			m.MaxDeletedID, err = jsonStreamID(value)
		case "addedEntriesCount":
			m.EntriesAdded, err = jsonUint(value)
		default:
			return nil
		}
		if err != nil {
			return fmt.Errorf("%q: %w", name, err)
		}
		return nil
	})
	if err != nil || groups == nil {
		return err
	}
	return eachElement(groups, func(g []byte) error {
		sg, err := jsonStreamGroup(g, version)
		if err != nil {
			return fmt.Errorf(`"groups": %w`, err)
		}
		rec.Stream.Groups = append(rec.Stream.Groups, sg)
		return nil
	})
}

// appendStreamNode adds the live messages of one node to rec.
func appendStreamNode(rec *record.Record, node []byte) error {
	var master [][]byte
	var msgs []byte
	err := eachField(node, func(name, value []byte) error {
		switch string(name) {
		case "fields":
			return eachElement(value, func(f []byte) error {
				s, err := str(f)
				master = append(master, s)
				return err
			})
		case "msgs":
			msgs = value
		}
		return nil
	})
	if err != nil || msgs == nil {
		return err
	}
	return eachElement(msgs, func(msg []byte) error {
		var e record.Member
		var fields []record.Member
		deleted := false
		err := eachField(msg, func(name, value []byte) error {
			var err error
			switch string(name) {
			case "id":
				e.ID, err = jsonStreamID(value)
			case "fields":
				fields, err = appendHash(nil, value)
			case "deleted":
				deleted = string(value) == "true"
			}
			return err
		})
		if err != nil {
			return fmt.Errorf(`"entries": %w`, err)
		}
		if deleted {
			return nil
		}
		for _, f := range inMasterOrder(fields, master) {
			e.Fields = append(e.Fields, f.Name, f.Value)
		}
		rec.Members = append(rec.Members, e)
		return nil
	})
}

// jsonStreamGroup reads a consumer group of a stream object of the given version.
func jsonStreamGroup(g []byte, version uint64) (record.StreamGroup, error) {
	sg := record.StreamGroup{EntriesRead: -1}
	if version >= 2 {
		sg.EntriesRead = 0 // printed only when not 0
	}
	err := eachField(g, func(name, value []byte) error {
		var err error
		switch string(name) {
		case "name":
			sg.Name, err = str(value)
		case "lastId":
			sg.LastID, err = jsonStreamID(value)
		case "entriesRead":
			var n uint64
			n, err = jsonUint(value)
			sg.EntriesRead = int64(n) // 2^64-1 is -1, unknown
		case "pending":
			err = eachElement(value, func(p []byte) error {
				var sp record.StreamPending
				err := eachField(p, func(name, value []byte) error {
					var err error
					var n uint64
					switch string(name) {
					case "id":
						sp.ID, err = jsonStreamID(value)
					case "deliveryTime":
						n, err = jsonUint(value)
						sp.DeliveryTimeMS = int64(n)
					case "deliveryCount":
						sp.DeliveryCount, err = jsonUint(value)
					}
					return err
				})
				sg.Pending = append(sg.Pending, sp)
				return err
			})
		case "consumers":
			err = eachElement(value, func(c []byte) error {
				sc, err := jsonStreamConsumer(c, version)
				sg.Consumers = append(sg.Consumers, sc)
				return err
			})
		}
		if err != nil {
			return fmt.Errorf("%q: %w", name, err)
		}
		return nil
	})
	return sg, err
}

// jsonStreamConsumer reads a consumer of a group.
func jsonStreamConsumer(c []byte, version uint64) (record.StreamConsumer, error) {
	var sc record.StreamConsumer
	err := eachField(c, func(name, value []byte) error {
		var err error
		var n uint64
		switch string(name) {
		case "name":
			sc.Name, err = str(value)
		case "seenTime":
			n, err = jsonUint(value)
			sc.SeenTimeMS = int64(n)
		case "activeTime":
			n, err = jsonUint(value)
			sc.ActiveTimeMS = int64(n) // 2^64-1 is -1, never active
		case "pending":
			err = eachElement(value, func(id []byte) error {
				sid, err := jsonStreamID(id)
				sc.Pending = append(sc.Pending, sid)
				return err
			})
		}
		return err
	})
	if version < 3 {
		sc.ActiveTimeMS = sc.SeenTimeMS // as servers load files before RDB 11
	}
	return sc, err
}

// jsonUint reads a whole number of at least 0.
func jsonUint(value []byte) (uint64, error) {
	n, err := strconv.ParseUint(string(value), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want a whole number of at least 0, got %s", clip(value))
	}
	return n, nil
}

// jsonStreamID reads an id written "ms-seq".
func jsonStreamID(value []byte) (record.StreamID, error) {
	s, err := str(value)
	if err != nil {
		return record.StreamID{}, err
	}
	ms, seq, ok := strings.Cut(string(s), "-")
	a, err1 := strconv.ParseUint(ms, 10, 64)
	b, err2 := strconv.ParseUint(seq, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return record.StreamID{}, fmt.Errorf(`stream id %q: want "ms-seq", two whole numbers`, s)
	}
	return record.StreamID{Ms: a, Seq: b}, nil
}

// inMasterOrder returns fields in the order of master when they are master's fields, each
// taken once (a name that repeats takes its fields in their order); else fields as they are.
func inMasterOrder(fields []record.Member, master [][]byte) []record.Member {
	if len(fields) != len(master) {
		return fields
	}
	out := make([]record.Member, 0, len(fields))
	used := make([]bool, len(fields))
	for _, name := range master {
		k := slices.IndexFunc(fields, func(m record.Member) bool { return bytes.Equal(m.Name, name) })
		for k >= 0 && used[k] {
			next := slices.IndexFunc(fields[k+1:], func(m record.Member) bool { return bytes.Equal(m.Name, name) })
			if next < 0 {
				k = -1
				break
			}
			k += 1 + next
		}
		if k < 0 {
			return fields
		}
		used[k] = true
		out = append(out, fields[k])
	}
	return out
}
