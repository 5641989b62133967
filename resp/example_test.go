package resp_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/resp"
)

// A Writer turns records into the RESP stream that redis-cli --pipe sends.
func ExampleWriter() {
	var out bytes.Buffer
	w, err := resp.NewWriter(&out, resp.Options{})
	if err != nil {
		log.Fatal(err)
	}
	_ = w.BeginDB(0, encoder.DBInfo{Keys: 1})
	_ = w.BeginSet([]byte("tags"), 2, 1767225600000)
	_ = w.AddMember([]byte("go"))
	_ = w.AddMember([]byte("redis"))
	_ = w.EndCollection()
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
