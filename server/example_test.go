package server_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

func ExampleStart() {
	ctx := context.Background()
	inst, err := server.Start(ctx, "dump.rdb", server.Options{
		Backend: server.BackendProcess,
		Progress: func(p record.Progress) {
			fmt.Printf("loading: %d of %d bytes\n", p.Bytes, p.TotalBytes)
		},
	})
	if errors.Is(err, server.ErrLoadRefused) {
		fmt.Println(err) // redis refused dump.rdb: Can't handle RDB format version 12
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer inst.Close(ctx)

	n, err := inst.Client().DBSize(ctx).Result()
	fmt.Println(n, err, inst.LoadDuration.Round(time.Millisecond))
}
