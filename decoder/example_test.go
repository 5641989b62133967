package decoder_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/rdbgen/rdbgen/decoder"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// printSink prints the strings of a file and counts the members of its collections.
type printSink struct{ nopSink }

func (printSink) WriteString(key, value []byte, exp int64) error {
	fmt.Printf("%s = %s (expires %d)\n", key, value, exp)
	return nil
}

func (p *printSink) BeginSet(key []byte, n uint64, _ int64) error {
	fmt.Printf("%s: set of %d\n", key, n)
	return nil
}

func Example() {
	// A file to read: the encoder writes one.
	var file bytes.Buffer
	w, _ := encoder.NewWriter(&file, encoder.Options{Target: "redis-7.2"})
	w.BeginDB(0, encoder.DBInfo{Keys: 2})
	w.WriteString([]byte("greeting"), []byte("hello"), 0)
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
