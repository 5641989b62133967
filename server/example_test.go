package server_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rdbgen/rdbgen/server"
)

func ExampleStart() {
	ctx := context.Background()
	inst, err := server.Start(ctx, "dump.rdb", server.Options{
		Backend: server.BackendProcess,
		Progress: func(p server.LoadProgress) {
			fmt.Printf("loading: %.0f%%\n", p.Percent)
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
