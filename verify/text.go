package verify

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/internal/summary"
)

// WriteText writes rep for people, as rdbgen verify prints it; manifestPath is the manifest
// the file was checked against ("" for none):
//
//	file      dump.rdb: 23.4 KiB, RDB 9, checksum 3c3a0ed2a1c1e9b8 ok
//	          db 0: 1000 keys, 1000 with TTL (1000 string)
//	          encodings: 1000 string
//	manifest  dump.rdb.manifest.json
//	load      process at 127.0.0.1:41233: loaded in 31ms (the server says 2ms)
//	server    redis 7.0.15 at 127.0.0.1:41233: used_memory 1.0 MiB
//	          db 0: 1000 keys, 1000 with TTL
//	          1000 sampled keys checked (type, value, TTL; seed 42), 2 keys checked absent
//	PASS
func WriteText(w io.Writer, rep *Report, manifestPath string) error {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-9s %s\n", label, fmt.Sprintf(format, args...))
	}
	if f := rep.File; f != nil {
		version := fmt.Sprintf("RDB %d", f.RDBVersion)
		if f.RDBVersion == 0 {
			version = "unknown RDB version"
		}
		checksum := "not checked"
		switch f.ChecksumStatus {
		case ChecksumNone:
			checksum = "none (zero trailer)"
		case ChecksumAbsent:
			checksum = "none (RDB 1 to 4 have no trailer)"
		case ChecksumOK, ChecksumBad:
			checksum = f.Checksum + " " + f.ChecksumStatus
		}
		line("file", "%s: %s, %s, checksum %s", f.Path, human.Bytes(f.Bytes), version, checksum)
		if f.TrailingBytes > 0 {
			line("", "%d bytes after the EOF marker and checksum, ignored as Redis ignores them", f.TrailingBytes)
		}
		if f.Parsed {
			writeDBs(line, f.DBs)
			if len(f.Encodings) > 0 {
				var encs []string
				for _, e := range slices.Sorted(maps.Keys(f.Encodings)) {
					encs = append(encs, fmt.Sprintf("%d %s", f.Encodings[e], e))
				}
				line("", "encodings: %s", strings.Join(encs, ", "))
			}
			if len(f.Newer) > 0 {
				line("", "data of Redis 8.6+ that no earlier format holds: %s", summary.NewerList(f.Newer))
			}
			if len(f.Modules) > 0 || len(f.ModuleAux) > 0 {
				line("", "module data: %s", moduleCounts(f.Modules, f.ModuleAux))
			}
			if f.Expires > 0 {
				line("", "expiries from %s to %s", human.MSTime(f.MinExpireAtMS), human.MSTime(f.MaxExpireAtMS))
				line("", "%s", expiredNow(f))
			}
		}
	}
	if manifestPath != "" {
		line("manifest", "%s", manifestPath)
	} else if rep.File != nil {
		line("manifest", "none: the counts are checked against the file's own")
	}
	if rep.NotLoaded != "" {
		line("load", "skipped: %s", rep.NotLoaded)
	}
	if l := rep.Load; l != nil {
		how := l.Backend
		if l.Container != "" {
			how += " container " + l.Container
		}
		logged := ""
		if l.ServerSeconds > 0 {
			logged = fmt.Sprintf(" (the server says %s)", human.Seconds(l.ServerSeconds))
		}
		line("load", "%s at %s: loaded in %s%s", how, l.Addr, human.Seconds(l.Seconds), logged)
	}
	if s := rep.Server; s != nil {
		line("server", "redis %s at %s: used_memory %s", s.Version, s.Addr, human.Bytes(s.UsedMemory))
		writeDBs(line, s.DBs)
		line("", "%d sampled keys checked (type, value, TTL; seed %d), %d keys checked absent", s.Sampled, s.SampleSeed, s.Absent)
	}
	writeVerdict(&b, rep.Pass, rep.MismatchCount, rep.Mismatches)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeVerdict writes PASS, or FAIL and the mismatches.
func writeVerdict(b *strings.Builder, pass bool, count int, list []Mismatch) {
	if pass {
		b.WriteString("PASS\n")
		return
	}
	noun := "mismatches"
	if count == 1 {
		noun = "mismatch"
	}
	fmt.Fprintf(b, "FAIL: %d %s\n", count, noun)
	for _, m := range list {
		fmt.Fprintf(b, "  %s\n", m)
	}
	if more := count - len(list); more > 0 {
		fmt.Fprintf(b, "  ... and %d more\n", more)
	}
}

// writeDBs writes a line per database.
func writeDBs(line func(label, format string, args ...any), dbs map[int]DBCounts) {
	if len(dbs) == 0 {
		line("", "no keys")
	}
	for _, db := range slices.Sorted(maps.Keys(dbs)) {
		c := dbs[db]
		line("", "db %d: %d keys, %d with TTL%s", db, c.Keys, c.Expires, typeCounts(c.Types))
	}
}

// typeCounts renders the keys per type as " (1000 string, 5 hash)", or "" for none.
func typeCounts(types map[string]uint64) string {
	var parts []string
	for _, t := range slices.Sorted(maps.Keys(types)) {
		parts = append(parts, fmt.Sprintf("%d %s", types[t], t))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// expiredNow tells how many keys of the file had expired when it was checked, and when the
// last one expires: a server loading a stale dump drops its expired keys.
func expiredNow(f *FileReport) string {
	last := time.UnixMilli(f.MaxExpireAtMS).Sub(time.UnixMilli(f.CheckedAtMS)).Round(time.Second)
	when := "the last expires in " + last.String()
	if last <= 0 {
		when = "the last expired " + (-last).String() + " ago: the dump is stale"
	}
	return fmt.Sprintf("%d of %d keys with a TTL already expired at %s; %s", f.Expired, f.Expires, human.MSTime(f.CheckedAtMS), when)
}

// moduleCounts renders the module values and AUX payloads of a file per module:
// "2 MBbloom--, 1 ReJSON-RL, AUX data of ft-index".
func moduleCounts(values, aux map[string]uint64) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(values)) {
		parts = append(parts, fmt.Sprintf("%d %s", values[name], name))
	}
	for _, name := range slices.Sorted(maps.Keys(aux)) {
		parts = append(parts, fmt.Sprintf("%d AUX of %s", aux[name], name))
	}
	return strings.Join(parts, ", ")
}

// WriteClusterText writes rep for people, as rdbgen verify --cluster prints it:
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
func WriteClusterText(w io.Writer, rep *ClusterReport) error {
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
	if checksums[ChecksumOK] != len(rep.Files) {
		sums = fmt.Sprintf("checksums: %d ok, %d none, %d mismatch", checksums[ChecksumOK], checksums[ChecksumNone], checksums[ChecksumBad])
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
