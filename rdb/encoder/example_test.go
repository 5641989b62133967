package encoder_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
)

func ExampleWriter() {
	var buf bytes.Buffer
	w, err := encoder.NewWriter(&buf, encoder.Options{Target: "redis-7.0"})
	if err != nil {
		log.Fatal(err)
	}
	// Declaring the counts lets Redis size its tables before it reads the keys.
	if err := w.BeginDB(0, encoder.DBInfo{Keys: 2, Expires: 1}); err != nil {
		log.Fatal(err)
	}
	w.WriteString([]byte("greeting"), []byte("hello"), 0)
	w.WriteString([]byte("session:1"), []byte("data"), 1893456000000) // expires 2030-01-01
	// Close reports the first error of any call, and writes the trailer.
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	s := w.Stats()
	fmt.Printf("%s: %d keys, %d with expiry, %d bytes\n", buf.Bytes()[:9], s.Keys, s.Expires, s.Bytes)
	// Output: REDIS0010: 2 keys, 1 with expiry, 131 bytes
}

// A collection: its Begin call declares the number of members, one Add call per member
// follows, and End closes it.
func ExampleWriter_BeginZSet() {
	w, err := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.2"})
	if err != nil {
		log.Fatal(err)
	}
	w.BeginDB(0, encoder.DBInfo{})
	w.BeginZSet([]byte("scores"), 2, 0)
	w.AddScoredMember([]byte("ada"), 10)
	w.AddScoredMember([]byte("bob"), 7.5)
	w.End()
	w.BeginSet([]byte("tags"), 2, 0)
	w.AddMember([]byte("a"))
	w.AddMember([]byte("b"))
	w.End()
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Stats().Keys, "keys,", w.Stats().Members, "members")
	// Output: 2 keys, 4 members
}

// A stream: its entries in rising id order, then its consumer groups, then End. The
// length, last id, first id and entries added are derived from the entries.
func ExampleWriter_BeginStream() {
	w, err := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.2"})
	if err != nil {
		log.Fatal(err)
	}
	w.BeginDB(0, encoder.DBInfo{})
	w.BeginStream([]byte("orders"), 0)
	w.AddStreamEntry(encoder.StreamID{Ms: 1700000000000}, [][]byte{[]byte("item"), []byte("book"), []byte("qty"), []byte("1")})
	w.AddStreamEntry(encoder.StreamID{Ms: 1700000000001}, [][]byte{[]byte("item"), []byte("pen"), []byte("qty"), []byte("3")})
	// One consumer has read the first entry and not acknowledged it.
	first := encoder.StreamID{Ms: 1700000000000}
	w.AddStreamGroup(&encoder.StreamGroup{
		Name: []byte("shipping"), LastID: first, EntriesRead: 1,
		Pending:   []encoder.StreamPending{{ID: first, DeliveryTimeMS: 1700000000500, DeliveryCount: 1}},
		Consumers: []encoder.StreamConsumer{{Name: []byte("worker-1"), SeenTimeMS: 1700000000500, ActiveTimeMS: 1700000000500, Pending: []encoder.StreamID{first}}},
	})
	if err := w.End(); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Stats().Keys, "key,", w.Stats().Members, "entries")
	// Output: 1 key, 2 entries
}

// A hash whose fields expire (RDB 12): the smallest field expiry comes first.
func ExampleWriter_BeginHashTTL() {
	w, err := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.4"})
	if err != nil {
		log.Fatal(err)
	}
	w.BeginDB(0, encoder.DBInfo{})
	w.BeginHashTTL([]byte("session:1"), 2, 0, 1893456000000)
	w.AddField([]byte("user"), []byte("ada"), 0)
	w.AddField([]byte("token"), []byte("x1y2"), 1893456000000)
	if err := w.End(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Close())

	// Below RDB 12 it is an error, unless Options.DropFieldTTL.
	old, _ := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.2"})
	old.BeginDB(0, encoder.DBInfo{})
	fmt.Println(old.BeginHashTTL([]byte("session:1"), 2, 0, 1893456000000))
	// Output:
	// <nil>
	// write key "session:1": a hash with field TTLs needs RDB 12 (redis-7.4 or later), and redis-7.2 writes RDB 11
}

// Options.Check tells what a file written under the options can hold, without a Writer.
func ExampleOptions_Check() {
	caps, err := encoder.Options{Target: "redis-7.2"}.Check()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(caps.Target.Name, caps.RDBVersion, caps.Can(rdb.SetListpack), caps.Can(rdb.HashFieldTTL))
	fmt.Println(caps.Refuse(rdb.HashFieldTTL))
	// Output:
	// redis-7.2 11 true false
	// a hash with field TTLs needs RDB 12 (redis-7.4 or later), and redis-7.2 writes RDB 11
}
