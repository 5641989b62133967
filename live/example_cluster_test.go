package live_test

import (
	"context"
	"fmt"
	"log"

	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/record"
)

// Count the keys of every primary of a Redis Cluster, reached through any of its nodes.
func ExampleOpenCluster() {
	ctx := context.Background()
	src, err := live.OpenCluster(ctx, "redis://127.0.0.1:7000", live.Options{})
	if err != nil {
		log.Fatal(err)
	}
	var count record.Count
	if err := src.WriteTo(ctx, &count); err != nil {
		log.Fatal(err)
	}
	fmt.Println(count.Counts.Keys, "keys on", len(src.Primaries()), "primaries")
}
