package inspect_test

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

func ExampleRead() {
	// A file of two strings, one of which expires in an hour.
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var file bytes.Buffer
	w, _ := rdbsink.NewWriter(&file, encoder.Options{Target: "redis-7.0", CreatedAt: now})
	_ = w.BeginDB(0, record.Counts{Keys: 2, Expires: 1})
	_ = w.Begin(&record.Header{Key: []byte("greeting"), Type: record.String, Value: []byte("hello")})
	_ = w.Begin(&record.Header{Key: []byte("session"), Type: record.String, Value: []byte("abc"), ExpireAtMS: now.Add(time.Hour).UnixMilli()})
	_ = w.Close()

	rep, err := inspect.Read(context.Background(), &file, inspect.Options{Now: now})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("RDB %d from redis %s: %d keys, %d expiring\n", rep.RDBVersion, rep.Aux["redis-ver"], rep.Keys, rep.Expires)
	fmt.Printf("largest: %s (%d bytes in the file)\n", rep.Largest.BySize[0].Key, rep.Largest.BySize[0].Bytes)
	fmt.Printf("used_memory on %s: %d bytes\n", rep.Memory.Target, rep.Memory.Bytes)
	// Output:
	// RDB 10 from redis 7.0.0: 2 keys, 1 expiring
	// largest: greeting (16 bytes in the file)
	// used_memory on redis-7.0: 256 bytes
}
