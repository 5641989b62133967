package verify_test

import (
	"context"
	"fmt"
	"log"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/server"
	"github.com/rdbgen/rdbgen/verify"
)

func ExampleFile() {
	ctx := context.Background()
	m, err := manifest.Read(manifest.PathFor("dump.rdb"))
	if err != nil {
		log.Fatal(err)
	}
	rep, err := verify.File(ctx, "dump.rdb", verify.Options{
		Manifest: m,
		Server:   server.Options{Backend: server.BackendProcess},
	})
	if err != nil {
		log.Fatal(err) // the file could not be verified: no such file, no redis-server...
	}
	if !rep.Pass {
		// "load: redis refused dump.rdb: Can't handle RDB format version 12"
		log.Fatal(rep.Reason)
	}
	fmt.Printf("%d keys loaded in %.2f s, %d sampled keys checked\n",
		rep.Server.Keys, rep.Load.Seconds, rep.Server.Sampled)
}

// A live server, loaded some other way, is checked against the manifest of the dataset it
// should hold.
func ExampleServer() {
	ctx := context.Background()
	m, err := manifest.Read("dump.rdb.manifest.json")
	if err != nil {
		log.Fatal(err)
	}
	rep, err := verify.Server(ctx, &redis.Options{Addr: "127.0.0.1:6379"}, verify.Options{Manifest: m, Sample: 100})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range rep.Mismatches {
		fmt.Println(m) // server: db 0 key "key100000007": value: got "x", want "key100000007"
	}
}
