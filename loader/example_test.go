package loader_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/record"
)

func ExampleLoad() {
	d := &dataset.Config{Count: 1_000_000, KeyPrefix: "key", KeyStart: 100000001}
	res, err := loader.Load(context.Background(), d, loader.Options{
		Addr:   "127.0.0.1:6379",
		Method: loader.Pipeline,
		Batch:  1000,
		Progress: func(p record.Progress) {
			fmt.Printf("%d/%d keys\n", p.Keys, p.Total)
		},
	})
	var le *loader.Error
	if errors.As(err, &le) {
		fmt.Println(err) // load into 127.0.0.1:6379 stopped with 0 of 1000000 keys confirmed: connect: …
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d keys in %v\n", res.Keys, res.Duration.Round(time.Millisecond))
}
