// Package verify checks an RDB file, and a Redis serving it, against what the file should
// hold.
//
// [File] runs three stages on a dump file:
//
//  1. Offline: the decoder reads every record, checking the CRC-64 trailer as it goes, counts
//     keys per database, per type and per encoding, and expiries, and finds repeated keys in
//     a database and repeated members in a collection exactly (a fingerprint table of 5.3
//     bytes per key, then a second read over the candidates, if any; see dups.go). The
//     reader applies Redis's deep sanitization rules (sanitize-dump-payload yes) to every
//     listpack, ziplist, intset, zipmap, score and stream. RDB 1 to 4 have no checksum
//     trailer. Module values are skipped and counted per module ([FileReport.Modules]). A
//     file that fails is read once more for its checksum, which explains damage first. When
//     a manifest is given, the version, size, checksum and counts must equal its own.
//  2. Restart: [server.Start] starts a real Redis on the file and waits for the load. A file
//     that fails stage 1 is never loaded, so that a damaged file never replaces the data of
//     an existing container ([server.Options.Container]), nor is a file holding module data
//     unless the server's arguments load a module ([Report.NotLoaded] says so). A server
//     that refuses the file fails the check with the server's own reason.
//  3. Spot-check: [Server] reads the server's counts (DBSIZE, INFO keyspace) and compares
//     them with the manifest (without one, with the file's counts less the keys whose TTL
//     lapsed before the load; those lapsing while the counts are read may be either), then reads a sample of records, spread across the whole
//     dataset with the first and last included (see [Sample]), and compares each one's type,
//     value and TTL with the record recomputed from the manifest: its dataset, or each
//     family of its spec file, which gets a share of the sample in proportion to its keys.
//     A collection of up to 1000 members is compared member by member; a larger one by its
//     length and 100 sampled members. Keys just outside the dataset's range must be absent.
//     A manifest of an import cannot recompute its records: only the counts are compared.
//
// [Server] runs stage 3 alone, on any live server: after an online load, for instance.
//
// A file that is one shard of a cluster dataset (its manifest has a cluster section) holds
// the records of its slots only: the sampled records of other slots must be absent from it.
// [Cluster] verifies all the shards of such a dataset together, in a real Redis Cluster of
// one primary per file (see its documentation), and returns a [ClusterReport].
//
// File and Server return a [Report]. A Report with Pass false lists what differed ([Mismatch]); an
// error means the check could not be made (no such file, docker unavailable, ...). The
// package never prints: long stages report through [Options.Progress].
package verify
