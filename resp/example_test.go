package resp_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// A Writer turns records into the RESP stream that redis-cli --pipe sends.
func ExampleWriter() {
	var out bytes.Buffer
	w, err := resp.NewWriter(&out, resp.Options{})
	if err != nil {
		log.Fatal(err)
	}
	_ = w.BeginDB(0, record.Counts{Keys: 1})
	tags := record.Record{Key: []byte("tags"), Type: record.Set, ExpireAtMS: 1767225600000,
		Members: []record.Member{{Name: []byte("go")}, {Name: []byte("redis")}}}
	_ = tags.WriteTo(w)
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	for line := range bytes.Lines(out.Bytes()) {
		fmt.Printf("%q\n", line)
	}
	// Output:
	// "*2\r\n"
	// "$6\r\n"
	// "SELECT\r\n"
	// "$1\r\n"
	// "0\r\n"
	// "*2\r\n"
	// "$3\r\n"
	// "DEL\r\n"
	// "$4\r\n"
	// "tags\r\n"
	// "*4\r\n"
	// "$4\r\n"
	// "SADD\r\n"
	// "$4\r\n"
	// "tags\r\n"
	// "$2\r\n"
	// "go\r\n"
	// "$5\r\n"
	// "redis\r\n"
	// "*3\r\n"
	// "$9\r\n"
	// "PEXPIREAT\r\n"
	// "$4\r\n"
	// "tags\r\n"
	// "$13\r\n"
	// "1767225600000\r\n"
}
