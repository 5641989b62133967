package encoder_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

func ExampleWriter() {
	var buf bytes.Buffer
	w, err := encoder.NewWriter(&buf, encoder.Options{Target: "redis-7.0"})
	if err != nil {
		log.Fatal(err)
	}
	// Declaring the counts lets Redis size its tables before it reads the keys.
	if err := w.BeginDB(0, record.Counts{Keys: 2, Expires: 1}); err != nil {
		log.Fatal(err)
	}
	// A string is whole in its header.
	w.Begin(&record.Header{Key: []byte("greeting"), Type: record.String, Value: []byte("hello")})
	w.Begin(&record.Header{Key: []byte("session:1"), Type: record.String, Value: []byte("data"), ExpireAtMS: 1893456000000}) // expires 2030-01-01
	// Close reports the first error of any call, and writes the trailer.
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	s := w.Stats()
	fmt.Printf("%s: %d keys, %d with expiry, %d bytes\n", buf.Bytes()[:9], s.Keys, s.Expires, s.Bytes)
	// Output: REDIS0010: 2 keys, 1 with expiry, 149 bytes
}

// A collection: its header declares the number of members, one Add per member follows, and
// End closes it. A record.Record writes itself so.
func ExampleWriter_Add() {
	w, err := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.2"})
	if err != nil {
		log.Fatal(err)
	}
	w.BeginDB(0, record.Counts{})
	w.Begin(&record.Header{Key: []byte("scores"), Type: record.ZSet, Len: 2})
	w.Add(&record.Member{Name: []byte("ada"), Score: 10})
	w.Add(&record.Member{Name: []byte("bob"), Score: 7.5})
	w.End(nil)
	tags := record.Record{Key: []byte("tags"), Type: record.Set, Members: []record.Member{{Name: []byte("a")}, {Name: []byte("b")}}}
	if err := tags.WriteTo(w); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Stats().Keys, "keys,", w.Stats().Members, "members")
	// Output: 2 keys, 4 members
}

// A stream: its entries in rising id order, then, at End, its consumer groups. The length,
// last id, first id and entries added are derived from the entries.
func ExampleWriter_End() {
	w, err := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.2"})
	if err != nil {
		log.Fatal(err)
	}
	w.BeginDB(0, record.Counts{})
	w.Begin(&record.Header{Key: []byte("orders"), Type: record.Stream})
	w.Add(&record.Member{ID: record.StreamID{Ms: 1700000000000}, Fields: [][]byte{[]byte("item"), []byte("book"), []byte("qty"), []byte("1")}})
	w.Add(&record.Member{ID: record.StreamID{Ms: 1700000000001}, Fields: [][]byte{[]byte("item"), []byte("pen"), []byte("qty"), []byte("3")}})
	// One consumer has read the first entry and not acknowledged it.
	first := record.StreamID{Ms: 1700000000000}
	err = w.End(&record.StreamTail{Groups: []record.StreamGroup{{
		Name: []byte("shipping"), LastID: first, EntriesRead: 1,
		Pending:   []record.StreamPending{{ID: first, DeliveryTimeMS: 1700000000500, DeliveryCount: 1}},
		Consumers: []record.StreamConsumer{{Name: []byte("worker-1"), SeenTimeMS: 1700000000500, ActiveTimeMS: 1700000000500, Pending: []record.StreamID{first}}},
	}}})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Stats().Keys, "key,", w.Stats().Members, "entries")
	// Output: 1 key, 2 entries
}

// A hash whose fields expire (RDB 12): the smallest field expiry comes in the header.
func ExampleWriter_Begin() {
	w, err := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.4"})
	if err != nil {
		log.Fatal(err)
	}
	w.BeginDB(0, record.Counts{})
	h := record.Header{Key: []byte("session:1"), Type: record.Hash, Len: 2, MinFieldExpireAtMS: 1893456000000}
	w.Begin(&h)
	w.Add(&record.Member{Name: []byte("user"), Value: []byte("ada")})
	w.Add(&record.Member{Name: []byte("token"), Value: []byte("x1y2"), ExpireAtMS: 1893456000000})
	if err := w.End(nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Close())

	// Below RDB 12 it is an error, unless Options.DropFieldTTL.
	old, _ := encoder.NewWriter(new(bytes.Buffer), encoder.Options{Target: "redis-7.2"})
	old.BeginDB(0, record.Counts{})
	fmt.Println(old.Begin(&h))
	// Output:
	// <nil>
	// write key "session:1": a hash with field TTLs needs RDB 12 (redis-7.4 or later), and redis-7.2 writes RDB 11
}
