package memory_test

import (
	"context"
	"fmt"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/memory"
)

// Estimate what a million string keys take on a Redis 7.0 server: any record.Source
// writes into an Estimator as it would into an rdbsink.Writer.
func ExampleEstimator() {
	d := &dataset.Config{Count: 1_000_000, KeyPrefix: "key", KeyStart: 100000001}
	e, err := memory.New(memory.Options{Target: "redis-7.0"})
	if err != nil {
		panic(err)
	}
	if err := d.WriteTo(context.Background(), e); err != nil {
		panic(err)
	}
	r, err := e.Result()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d keys: %.1f MiB\n", r.Keys, float64(r.Bytes)/(1<<20))
	for _, u := range r.Encodings {
		fmt.Printf("%s %s: %d bytes a key\n", u.Type, u.Encoding, u.Bytes/int64(u.Keys))
	}
	// Output:
	// 1000000 keys: 84.3 MiB
	// string embstr: 80 bytes a key
}
