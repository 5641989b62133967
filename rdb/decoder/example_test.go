package decoder_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// printSink prints the strings of a file and counts the members of its collections.
type printSink struct{ nopSink }

func (printSink) Begin(h *record.Header) error {
	if h.Type == record.String {
		fmt.Printf("%s = %s (expires %d)\n", h.Key, h.Value, h.ExpireAtMS)
	} else {
		fmt.Printf("%s: %s of %d\n", h.Key, h.Type, h.Len)
	}
	return nil
}

func Example() {
	// A file to read: the encoder writes one.
	var file bytes.Buffer
	w, _ := rdbsink.NewWriter(&file, encoder.Options{Target: "redis-7.2"})
	w.BeginDB(0, record.Counts{Keys: 2})
	w.Begin(&record.Header{Key: []byte("greeting"), Type: record.String, Value: []byte("hello")})
	(&record.Record{Key: []byte("tags"), Type: record.Set, Members: []record.Member{{Name: []byte("a")}, {Name: []byte("b")}}}).WriteTo(w)
	w.Close()

	rd, err := decoder.NewReader(&file, decoder.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := rd.WriteTo(context.Background(), &printSink{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("RDB", rd.Version(), "written for", rd.Aux()["redis-ver"], rd.Stats().Types)
	// Output:
	// greeting = hello (expires 0)
	// tags: set of 2
	// RDB 11 written for 7.2.0 map[set-listpack:1 string:1]
}
