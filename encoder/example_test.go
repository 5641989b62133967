package encoder_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/rdbgen/rdbgen/encoder"
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
	// Output: REDIS0010: 2 keys, 1 with expiry, 149 bytes
}
