package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/verify"
)

// verifyClusterAction verifies the cluster dataset of a directory (rdbgen verify --cluster).
func verifyClusterAction(c *cli.Context) error {
	args := c.Args().Slice()
	switch {
	case len(args) == 0:
		return errors.New("--cluster needs the directory of the shard files (rdbgen verify --cluster dumps/)")
	case len(args) > 1:
		return fmt.Errorf("unexpected argument %q: verify --cluster takes one directory", args[1])
	}
	for _, name := range []string{"manifest", "container", "addr", "url"} {
		if c.IsSet(name) {
			return fmt.Errorf("--%s does not go with --cluster: each shard file has its manifest, and a fresh cluster is started", name)
		}
	}
	opts, err := verifyOptions(c)
	if err != nil {
		return err
	}
	bars := &stageBars{w: c.App.ErrWriter, quiet: c.Bool("quiet") || c.Bool("json")}
	opts.Progress = bars.update
	rep, err := verify.Cluster(c.Context, args[0], opts)
	bars.finish()
	var res *verifyResult
	if rep != nil {
		res = &verifyResult{json: rep, pass: rep.Pass, reason: rep.Reason,
			write: func(w io.Writer) error { return writeClusterReport(w, rep) }}
	}
	return endVerify(c, res, err)
}

// writeClusterReport writes the report of rdbgen verify --cluster for a reader:
//
//	files     dumps: 3 shard files, 1.7 MiB, RDB 9, checksums ok
//	          shard-0.rdb: 6715 keys, 6715 with TTL (6715 string)
//	          ...
//	cluster   3 process nodes: loaded in 120ms, joined in 2.04s
//	          shard-0.rdb  127.0.0.1:40001  slots 0-5460: 6715 keys (6715 with TTL), loaded in 41ms (the server says 7ms)
//	          ...
//	          20000 keys, 20000 with TTL, as the manifests say; every node holds keys of its own slots
//	          1000 sampled keys checked through the cluster (type, value, TTL; seed 42), 2 keys checked absent
//	PASS
func writeClusterReport(w io.Writer, rep *verify.ClusterReport) error {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-9s %s\n", label, fmt.Sprintf(format, args...))
	}
	var bytes int64
	versions, checksums := map[int]bool{}, map[string]int{}
	for _, f := range rep.Files {
		bytes += f.Bytes
		versions[f.RDBVersion] = true
		checksums[f.ChecksumStatus]++
	}
	version := "RDB versions differ"
	for v := range versions {
		if len(versions) == 1 {
			version = fmt.Sprintf("RDB %d", v)
		}
	}
	sums := "checksums ok"
	if checksums[verify.ChecksumOK] != len(rep.Files) {
		sums = fmt.Sprintf("checksums: %d ok, %d none, %d mismatch", checksums[verify.ChecksumOK], checksums[verify.ChecksumNone], checksums[verify.ChecksumBad])
	}
	line("files", "%s: %d shard files, %s, %s, %s", rep.Dir, len(rep.Files), human.Bytes(bytes), version, sums)
	for _, f := range rep.Files {
		if !f.Parsed {
			line("", "%s: not read", filepath.Base(f.Path))
			continue
		}
		c := f.DBs[0]
		line("", "%s: %d keys, %d with TTL%s", filepath.Base(f.Path), c.Keys, c.Expires, typeCounts(c.Types))
	}
	if rep.Backend != "" {
		line("cluster", "%d %s nodes: loaded in %s, joined in %s", len(rep.Nodes), rep.Backend, human.Seconds(rep.LoadSeconds), human.Seconds(rep.JoinSeconds))
		for _, n := range rep.Nodes {
			logged := ""
			if n.ServerLoadSeconds > 0 {
				logged = fmt.Sprintf(" (the server says %s)", human.Seconds(n.ServerLoadSeconds))
			}
			line("", "%s  %s  slots %s: %d keys (%d with TTL), loaded in %s%s",
				filepath.Base(n.File), n.Addr, strings.Join(n.Slots, ","), n.Keys, n.Expires, human.Seconds(n.LoadSeconds), logged)
		}
		line("", "%d keys, %d with TTL, in all (the manifests say %d, %d)", rep.Keys, rep.Expires, rep.WantKeys, rep.WantExpires)
		line("", "%d sampled keys checked through the cluster (type, value, TTL; seed %d), %d keys checked absent",
			rep.Sampled, rep.SampleSeed, rep.Absent)
	}
	writeVerdict(&b, rep.Pass, rep.MismatchCount, rep.Mismatches)
	_, err := io.WriteString(w, b.String())
	return err
}
