package live_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
)

// Copy a running server, every database, into an RDB file for Redis 6.2: as a replica
// when the server allows it, else with SCAN and DUMP.
func Example() {
	src, err := live.Open("redis://default:secret@127.0.0.1:6379", live.Options{
		Notice: func(msg string) { fmt.Fprintln(os.Stderr, msg) },
	})
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Create("copy.rdb")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	w, err := rdbsink.NewWriter(f, encoder.Options{Target: "redis-6.2", CountsAreHints: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := src.WriteTo(context.Background(), w); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
}
