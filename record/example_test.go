package record_test

import (
	"context"
	"fmt"

	"github.com/rdbgen/rdbgen/record"
)

// A Pipe lets a source go on while what is behind it works on another core; Close passes on
// what is left and waits.
func ExampleNewPipe() {
	var count record.Count
	pipe := record.NewPipe(&count)
	src := record.Records{
		{Key: []byte("user:1"), Value: []byte("ada"), ExpireAtMS: 1795946400000},
		{Key: []byte("tags"), Type: record.Set, Members: []record.Member{{Name: []byte("a")}, {Name: []byte("b")}}},
	}
	err := src.WriteTo(context.Background(), pipe)
	if cerr := pipe.Close(); err == nil {
		err = cerr
	}
	fmt.Println(count.Counts.Keys, count.Counts.Expires, count.Members, err)
	// Output: 2 1 2 <nil>
}
