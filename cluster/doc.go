// Package cluster splits datasets for Redis Cluster: it computes the hash slot of a key as
// Redis does, holds the layout that assigns the 16384 slots to shards (the even split of
// redis-cli --cluster create, or the layout of a running cluster read from CLUSTER NODES or
// CLUSTER SHARDS), and writes one RDB file per shard in a single pass over any stream of
// records; a Filter keeps one shard's records, for a process that writes (or loads) that
// shard alone, byte for byte as the whole split writes it.
//
// A cluster node holds database 0 only, so every shard file holds database 0.
package cluster
