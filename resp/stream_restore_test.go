package resp

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
)

func TestIDLogMissing(t *testing.T) {
	id := func(ms, seq uint64) record.StreamID { return record.StreamID{Ms: ms, Seq: seq} }
	var many []record.StreamID // 1000 ids over several marks, every third ms skipped
	for i := uint64(1); len(many) < 1000; i++ {
		if i%3 != 0 {
			many = append(many, id(i, i%5), id(i, i%5+2))
		}
	}
	for _, c := range []struct {
		name        string
		log, lookup []record.StreamID
		want        []record.StreamID
	}{
		{"empty log", nil, []record.StreamID{id(1, 0)}, []record.StreamID{id(1, 0)}},
		{"nothing looked up", many, nil, nil},
		{"all there", many, []record.StreamID{many[0], many[255], many[256], many[257], many[999]}, nil},
		{"before the first", many, []record.StreamID{id(0, 5), many[0]}, []record.StreamID{id(0, 5)}},
		{"after the last", many, []record.StreamID{many[999], id(1<<40, 0)}, []record.StreamID{id(1<<40, 0)}},
		{"skipped ms", many, []record.StreamID{id(3, 3), many[10], id(6, 1), id(600, 0)}, []record.StreamID{id(3, 3), id(6, 1), id(600, 0)}},
		{"between seqs", many, []record.StreamID{id(1, 2), id(2, 3)}, []record.StreamID{id(1, 2), id(2, 3)}},
		{"at a mark's edge", many, []record.StreamID{many[255], id(many[255].Ms, many[255].Seq+1), many[256]}, []record.StreamID{id(many[255].Ms, many[255].Seq+1)}},
		{"huge ids", []record.StreamID{id(1<<63, 0), id(1<<64-1, 1<<64-1)}, []record.StreamID{id(1<<64-1, 1<<64-1), id(1<<64-1, 0)}, []record.StreamID{id(1<<64-1, 0)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var l idLog
			for _, x := range c.log {
				l.add(x)
			}
			lookup := slices.Clone(c.lookup)
			slices.SortFunc(lookup, compareIDs)
			want := slices.Clone(c.want)
			slices.SortFunc(want, compareIDs)
			if got := l.missing(lookup); !slices.Equal(got, want) {
				t.Fatalf("missing %v, want %v", got, want)
			}
		})
	}
}

func TestVersionRDBVersion(t *testing.T) {
	for _, c := range []struct {
		v    Version
		want int
	}{
		{Version{}, rdb.MaxVersion}, {Version{4, 0}, 0}, {Version{5, 0}, 9}, {Version{6, 2}, 9},
		{Version{7, 0}, 10}, {Version{7, 2}, 11}, {Version{7, 4}, 12}, {Version{8, 4}, 12}, {Version{9, 9}, 12},
	} {
		if got := c.v.RDBVersion(); got != c.want {
			t.Errorf("%s: RDB %d, want %d", c.v, got, c.want)
		}
	}
}

// lostStream is a stream whose group g has a pending entry whose entry was deleted (1-0),
// one whose entry is there (2-0), and an idle consumer.
func lostStream(exp int64) record.Record {
	id := func(ms uint64) record.StreamID { return record.StreamID{Ms: ms} }
	return record.Record{Key: []byte("s"), Type: record.Stream, ExpireAtMS: exp,
		Members: []record.Member{{ID: id(2), Fields: [][]byte{[]byte("f"), []byte("v")}}},
		Stream: record.StreamTail{Meta: record.StreamMeta{Length: 1, LastID: id(2), MaxDeletedID: id(1), EntriesAdded: 2}, Groups: []record.StreamGroup{{Name: []byte("g"), LastID: id(2), EntriesRead: 2,
			Pending: []record.StreamPending{{ID: id(1), DeliveryTimeMS: 10, DeliveryCount: 1}, {ID: id(2), DeliveryTimeMS: 20, DeliveryCount: 3}},
			Consumers: []record.StreamConsumer{{Name: []byte("a"), Pending: []record.StreamID{id(1), id(2)}},
				{Name: []byte("idle")}}}}}}
}

// TestStreamRestore: which streams go as RESTORE, with what ttl and flags; what
// DropLostPending leaves out; a payload too large.
func TestStreamRestore(t *testing.T) {
	clean := lostStream(0)
	clean.Stream.Groups[0].Pending = clean.Stream.Groups[0].Pending[1:]
	clean.Stream.Groups[0].Consumers[0].Pending = clean.Stream.Groups[0].Consumers[0].Pending[1:]
	lostOnly := lostStream(0) // consumer a owns only the entry deleted
	lostOnly.Stream.Groups[0].Consumers = []record.StreamConsumer{{Name: []byte("a"), Pending: []record.StreamID{{Ms: 1}}},
		{Name: []byte("b"), Pending: []record.StreamID{{Ms: 2}}}, {Name: []byte("idle")}}
	twoGroups := lostStream(0) // a group commands rebuild, then one they cannot
	twoGroups.Stream.Groups = append([]record.StreamGroup{clean.Stream.Groups[0]}, twoGroups.Stream.Groups...)
	twoGroups.Stream.Groups[0].Name = []byte("first")
	for _, c := range []struct {
		name   string
		o      Options
		rec    record.Record
		last   string // the record's last command, payload left out
		counts StreamCounts
		err    error
	}{
		{"deleted pending entry", Options{Server: Version{7, 0}}, lostStream(0), "RESTORE s 0 * REPLACE .", StreamCounts{Restored: 1}, nil},
		{"absolute expiry", Options{Server: Version{7, 0}}, lostStream(4102444800000), "RESTORE s 4102444800000 * REPLACE ABSTTL .", StreamCounts{Restored: 1}, nil},
		{"relative expiry", Options{Server: Version{7, 0}, Expiry: ExpiryRelative}, lostStream(4102444800000), "RESTORE s ? * REPLACE .", StreamCounts{Restored: 1}, nil},
		{"nothing lost on 6.2", Options{Server: Version{6, 2}}, clean, "XGROUP CREATECONSUMER s g idle .", StreamCounts{Consumers: 2}, nil},
		{"idle consumer on 6.0", Options{Server: Version{6, 0}}, clean, "RESTORE s 0 * REPLACE .", StreamCounts{Restored: 1}, nil},
		{"dropped", Options{Server: Version{7, 0}, DropLostPending: true}, lostStream(0), "XGROUP CREATECONSUMER s g idle .", StreamCounts{LostPending: 1, Consumers: 2}, nil},
		{"dropped on 5.0", Options{Server: Version{5, 0}, DropLostPending: true}, lostStream(0), "XCLAIM s g a 0 2-0 TIME 20 RETRYCOUNT 3 FORCE JUSTID .", StreamCounts{LostPending: 1, LostConsumers: 1, Consumers: 1}, nil},
		{"all of a consumer's lost on 5.0", Options{Server: Version{5, 0}, DropLostPending: true}, lostOnly, "XCLAIM s g b 0 2-0 TIME 20 RETRYCOUNT 3 FORCE JUSTID .", StreamCounts{LostPending: 1, LostConsumers: 2, Consumers: 1}, nil},
		{"a later group lost", Options{Server: Version{7, 0}}, twoGroups, "RESTORE s 0 * REPLACE .", StreamCounts{Restored: 1}, nil},
		{"too large", Options{Server: Version{7, 0}, MaxPayload: 40}, lostStream(0), "DEL s", StreamCounts{}, ErrLostPending},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out []string
			var payloads [][]byte
			cmds, err := NewCommands(restoreLines(&out, &payloads, c.o.Expiry == ExpiryRelative), c.o)
			if err != nil {
				t.Fatal(err)
			}
			defer cmds.Close()
			err = c.rec.WriteTo(cmds)
			if !errors.Is(err, c.err) || (err == nil) != (c.err == nil) {
				t.Fatalf("error %v, want %v", err, c.err)
			}
			if err != nil && (!strings.Contains(err.Error(), `write key "s"`) || !strings.Contains(err.Error(), "--drop-lost-pending")) {
				t.Fatalf("error %v names no key or no flag", err)
			}
			if got := out[len(out)-1]; got != c.last {
				t.Fatalf("last command %q, want %q; all:\n%s", got, c.last, strings.Join(out, "\n"))
			}
			if got := cmds.StreamCounts(); got != c.counts {
				t.Fatalf("counts %+v, want %+v", got, c.counts)
			}
			for _, p := range payloads {
				if v, err := rdb.CheckPayload(p, c.o.Server.RDBVersion()); err != nil || v != c.o.Server.RDBVersion() {
					t.Fatalf("payload of RDB %d: %v", v, err)
				}
			}
		})
	}
}

// restoreLines returns an emit function that appends each command to out as one line, its
// arguments separated by spaces and " ." after a record's last command; a RESTORE's payload
// is appended to payloads and shown as *, and with relative its TTL as ?.
func restoreLines(out *[]string, payloads *[][]byte, relative bool) func(*Command) error {
	return func(cmd *Command) error {
		args := make([]string, len(cmd.Args))
		for i, a := range cmd.Args {
			args[i] = string(a)
		}
		if args[0] == "RESTORE" {
			*payloads = append(*payloads, append([]byte(nil), cmd.Args[3]...))
			args[3] = "*"
			if relative {
				args[2] = "?"
			}
		}
		line := strings.Join(args, " ")
		if cmd.Last {
			line += " ."
		}
		*out = append(*out, line)
		return nil
	}
}
