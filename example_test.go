package rdbgen_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/spec"
)

// Any record.Source goes the same way; here a spec file, written to memory.
func ExampleWrite_spec() {
	s, err := spec.Parse("app.yaml", []byte(`
families:
  - key: "session:{id}"
    count: 100
    type: hash
    fields:
      user: {fake: username}
      hits: {int: {min: 0, max: 1000}}
  - key: "sessions"
    type: set
    members: {of_family: "session:{id}"}
`))
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	res, err := rdbgen.Write(context.Background(), &buf, s, rdbgen.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d keys, %d members, all %d bytes written: %t\n", res.Stats.Keys, res.Stats.Members, res.Stats.Bytes, res.Stats.Bytes == int64(buf.Len()))
	// Output:
	// 101 keys, 300 members, all 5614 bytes written: true
}
