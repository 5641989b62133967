package resp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// restoreRecords are a record of each type, two with an expiry.
func restoreRecords() []record.Record {
	id := func(ms uint64) record.StreamID { return record.StreamID{Ms: ms} }
	return []record.Record{
		{Key: []byte("str"), Type: record.String, Value: []byte("value"), ExpireAtMS: 4102444800000},
		{Key: []byte("int"), Type: record.String, Value: []byte("-12345")},
		{Key: []byte("hash"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}, {Name: []byte("g"), Value: []byte("")}}},
		{Key: []byte("list"), Type: record.List, Members: []record.Member{{Name: []byte("a")}, {Name: []byte("a")}, {Name: []byte("7")}}, ExpireAtMS: 4102444800001},
		{Key: []byte("set"), Type: record.Set, Members: []record.Member{{Name: []byte("x")}, {Name: []byte("y")}}},
		{Key: []byte("zset"), Type: record.ZSet, Members: []record.Member{{Name: []byte("n"), Score: -2}, {Name: []byte("m"), Score: 1.5}}}, // in score order, as a server holds them
		{Key: []byte("stream"), Type: record.Stream, Members: []record.Member{{ID: id(2), Fields: [][]byte{[]byte("f"), []byte("v")}}},
			Stream: record.StreamTail{Meta: record.StreamMeta{Length: 1, LastID: id(2), MaxDeletedID: id(1), EntriesAdded: 2},
				Groups: []record.StreamGroup{{Name: []byte("g"), LastID: id(2), EntriesRead: 2,
					Pending:   []record.StreamPending{{ID: id(1), DeliveryTimeMS: 10, DeliveryCount: 1}},
					Consumers: []record.StreamConsumer{{Name: []byte("a"), SeenTimeMS: 10, ActiveTimeMS: 10, Pending: []record.StreamID{id(1)}}}}}}},
	}
}

// TestRestoreCommands turns records into RESTORE commands for servers of several RDB
// versions: one command a record, its payload in the server's RDB version (the version
// bytes, checked as a server checks them), holding the record (read back by the decoder),
// its expiry as ABSTTL or the ms left, REPLACE when asked for.
func TestRestoreCommands(t *testing.T) {
	tests := []struct {
		server  string
		rdb     int
		expiry  resp.Expiry
		replace bool
	}{
		{"5.0", 9, resp.ExpiryAbsolute, false},
		{"6.2", 9, resp.ExpiryRelative, true},
		{"7.0.15", 10, resp.ExpiryAbsolute, true},
		{"7.2", 11, resp.ExpiryAbsolute, false},
		{"7.4", 12, resp.ExpiryAbsolute, false},
		{"8.4", 12, resp.ExpiryRelative, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s replace %v", tt.server, tt.expiry, tt.replace), func(t *testing.T) {
			v, err := resp.ParseVersion(tt.server)
			if err != nil {
				t.Fatal(err)
			}
			var cmds []resp.Command
			c, err := resp.NewCommands(func(cmd *resp.Command) error {
				cp := *cmd
				cp.Args = nil
				for _, a := range cmd.Args {
					cp.Args = append(cp.Args, bytes.Clone(a))
				}
				cmds = append(cmds, cp)
				return nil
			}, resp.Options{Server: v, Restore: true, Replace: tt.replace, Expiry: tt.expiry})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			recs := restoreRecords()
			for i := range recs {
				if err := recs[i].WriteTo(c); err != nil {
					t.Fatal(err)
				}
			}
			if len(cmds) != len(recs) {
				t.Fatalf("%d commands for %d records", len(cmds), len(recs))
			}
			pr, err := decoder.NewPayloadReader(decoder.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for i, cmd := range cmds {
				r := recs[i]
				if string(cmd.Args[0]) != "RESTORE" || !bytes.Equal(cmd.Args[1], r.Key) || !cmd.Last || cmd.ExpireAtMS != r.ExpireAtMS {
					t.Fatalf("record %s: command %q", r.Key, cmd.Args)
				}
				var want []string
				switch {
				case r.ExpireAtMS == 0:
					want = []string{"0"}
				case tt.expiry == resp.ExpiryAbsolute:
					want = []string{strconv.FormatInt(r.ExpireAtMS, 10)}
				default:
					want = []string{string(cmd.Args[2])} // ms left, checked below
					if left, err := strconv.ParseInt(want[0], 10, 64); err != nil || left <= 0 || left > r.ExpireAtMS {
						t.Fatalf("record %s: ttl %q", r.Key, want[0])
					}
				}
				want = append(want, "payload")
				if tt.replace {
					want = append(want, "REPLACE")
				}
				if r.ExpireAtMS != 0 && tt.expiry == resp.ExpiryAbsolute {
					want = append(want, "ABSTTL")
				}
				got := []string{string(cmd.Args[2]), "payload"}
				for _, a := range cmd.Args[4:] {
					got = append(got, string(a))
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("record %s: arguments %q, want %q", r.Key, got, want)
				}
				payload := cmd.Args[3]
				if ver, err := rdb.CheckPayload(payload, tt.rdb); err != nil || ver != tt.rdb {
					t.Fatalf("record %s: payload of RDB %d, want %d: %v", r.Key, ver, tt.rdb, err)
				}
				if _, err := rdb.CheckPayload(payload, tt.rdb-1); err == nil {
					t.Fatalf("record %s: a server of RDB %d takes the payload", r.Key, tt.rdb-1)
				}
				var back record.Collector
				if err := pr.WriteTo(context.Background(), r.Key, r.ExpireAtMS, payload, &back); err != nil {
					t.Fatalf("record %s: read the payload: %v", r.Key, err)
				}
				if r.Type == record.Stream {
					back.Rec.Stream.Meta.FirstID = record.StreamID{} // derived from the entries
					if tt.rdb < 10 {
						// RDB 9 holds no deleted id, entries added or entries read
						r.Stream.Meta.MaxDeletedID, r.Stream.Meta.EntriesAdded = record.StreamID{}, 0
						r.Stream.Groups = []record.StreamGroup{r.Stream.Groups[0]}
						r.Stream.Groups[0].EntriesRead = -1
					}
				}
				if !reflect.DeepEqual(back.Rec, r) {
					t.Fatalf("record %s: payload holds\n%+v\nwant\n%+v", r.Key, back.Rec, r)
				}
			}
		})
	}
}

// TestRestoreNeedsRedis5: no payload is written for a server before 5.0.
func TestRestoreNeedsRedis5(t *testing.T) {
	_, err := resp.NewCommands(func(*resp.Command) error { return nil }, resp.Options{Server: resp.Version{Major: 4, Minor: 0}, Restore: true})
	if !errors.Is(err, resp.ErrServerTooOld) {
		t.Fatalf("got %v, want ErrServerTooOld", err)
	}
}

// TestRestoreFallsBack sends as commands the records whose payloads pass MaxPayload: one
// whose members alone pass it (while they come), one whose payload only does (at its end),
// a string; the records around them go as RESTORE.
func TestRestoreFallsBack(t *testing.T) {
	const bound = 100
	hash := record.Record{Key: []byte("hash"), Type: record.Hash, ExpireAtMS: 4102444800000}
	for i := range 30 {
		hash.Members = append(hash.Members, record.Member{Name: fmt.Appendf(nil, "field%02d", i), Value: []byte("value")})
	}
	set := record.Record{Key: []byte("set"), Type: record.Set} // 84 bytes of members, a payload of more than 100
	for i := range 12 {
		set.Members = append(set.Members, record.Member{Name: fmt.Appendf(nil, "m%06d", i)})
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	// Of 95 bytes, which LZF does not shrink: a payload over the bound, an argument within.
	long := record.Record{Key: []byte("long"), Type: record.String, Value: make([]byte, 95)}
	for i := range long.Value {
		long.Value[i] = byte(rnd.Uint32())
	}
	small := record.Record{Key: []byte("small"), Type: record.List, Members: []record.Member{{Name: []byte("a")}}}
	var out []string
	c, err := resp.NewCommands(func(cmd *resp.Command) error {
		out = append(out, fmt.Sprintf("%s %s", cmd.Args[0], cmd.Key))
		return nil
	}, resp.Options{Server: resp.Version{Major: 7, Minor: 0}, Restore: true, MaxPayload: bound, MaxMembers: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, r := range []record.Record{small, hash, small, set, long, small} {
		if err := r.WriteTo(c); err != nil {
			t.Fatal(err)
		}
	}
	want := "RESTORE small|DEL hash|HSET hash|HSET hash|PEXPIREAT hash|RESTORE small|DEL set|SADD set|SET long|RESTORE small"
	if got := strings.Join(out, "|"); got != want {
		t.Fatalf("commands\n%s\nwant\n%s", got, want)
	}
	if got := c.RestoreCounts().Fallbacks; got != 2 {
		t.Fatalf("%d records sent as commands, want 2 (a string is not counted)", got)
	}
	// A value over the bound as an argument too: the server would close the connection.
	long.Value = append(long.Value, make([]byte, 10)...)
	err = long.WriteTo(c)
	if !errors.Is(err, resp.ErrTooLarge) || !strings.Contains(err.Error(), `write key "long": argument over the server's proto-max-bulk-len: a value of 105 bytes, and the server takes 100`) {
		t.Fatalf("a value of 105 bytes, bound 100: %v", err)
	}
}

// TestRestoreFallbackKeepsKeys: without Replace, the records sent as commands end in scripts
// that fail as RESTORE fails for a key the server holds (BUSYKEY): the move of one built under
// a temporary name, and what stands for one whose expiry has passed; with Replace, RENAME and
// DEL.
func TestRestoreFallbackKeepsKeys(t *testing.T) {
	hash := record.Record{Key: []byte("hash"), Type: record.Hash}
	for i := range 30 {
		hash.Members = append(hash.Members, record.Member{Name: fmt.Appendf(nil, "field%02d", i), Value: []byte("value")})
	}
	expired := hash
	expired.Key, expired.ExpireAtMS = []byte("gone"), 1000
	for _, replace := range []bool{false, true} {
		var last []string
		c, err := resp.NewCommands(func(cmd *resp.Command) error {
			if cmd.Last {
				last = append(last, fmt.Sprintf("%s %s", cmd.Args[0], cmd.Args[len(cmd.Args)-1]))
			}
			return nil
		}, resp.Options{Restore: true, Replace: replace, Atomic: true, MaxPayload: 100, MaxMembers: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []record.Record{hash, expired} {
			if err := r.WriteTo(c); err != nil {
				t.Fatal(err)
			}
		}
		c.Close()
		want := "EVAL hash|EVAL gone"
		if replace {
			want = "RENAME hash|DEL gone"
		}
		if got := strings.Join(last, "|"); got != want {
			t.Errorf("replace %v: last commands %s, want %s", replace, got, want)
		}
	}
}
