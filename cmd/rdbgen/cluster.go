package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/cluster"
)

// clusterFlags split what a command writes into one file per primary of a Redis Cluster.
func clusterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "cluster-shards", Usage: "split by hash slot into N files OUTPUT/shard-0.rdb ... for a Redis Cluster of N primaries", Category: "Cluster"},
		&cli.StringFlag{Name: "slots-from", Usage: "split by the slot layout of a running cluster: a file of CLUSTER NODES or CLUSTER SHARDS output, or a nodes.conf", Category: "Cluster"},
		shardIndexFlag(),
		shardCountFlag(),
	}
}

// isCluster tells whether the command is to write a cluster dataset.
func isCluster(c *cli.Context) bool { return c.IsSet("cluster-shards") || c.IsSet("slots-from") }

// clusterOutput checks the flags of a cluster split, whose output is a directory with one
// file and manifest per shard, and returns the layout to split by.
func clusterOutput(c *cli.Context) (*cluster.Layout, error) {
	flag := "--cluster-shards"
	if c.IsSet("slots-from") {
		flag = "--slots-from"
	}
	if err := splitOutput(c, flag); err != nil {
		return nil, err
	}
	return cluster.LayoutFor(c.Int("cluster-shards"), c.IsSet("cluster-shards"), c.String("slots-from"), c.IsSet("slots-from"))
}

// splitOutput checks that the flags let flag write one file and manifest per shard into the
// directory -o names.
func splitOutput(c *cli.Context, flag string) error {
	dir := c.String("output")
	switch {
	case c.IsSet("manifest"):
		return fmt.Errorf("--manifest does not go with %s: each shard's manifest goes next to its file", flag)
	case !c.IsSet("output"):
		return fmt.Errorf("%s writes one file per shard into a directory: name it with -o DIR", flag)
	case dir == "-":
		return fmt.Errorf("%s writes one file per shard: -o - (stdout) cannot hold them", flag)
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("-o %s is a file: a cluster split needs a directory", dir)
	}
	return nil
}
