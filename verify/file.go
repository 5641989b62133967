package verify

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/record"
)

// The fixed parts of an RDB file: "REDIS0009", the EOF opcode and the 8-byte checksum.
const (
	headerLen  = 9
	trailerLen = 8
	opEOF      = 0xff
	minFileLen = headerLen + 1 + trailerLen
)

// readChunk is the size of the reads of both passes over the file.
const readChunk = 1 << 20

// checkFile runs the offline stage on the file at path, adding what is wrong with it to ms.
// e is what opts.Manifest says, when there is one.
// Its error means the file could not be checked at all (it cannot be opened, it is a
// directory, ctx was cancelled).
func checkFile(ctx context.Context, path string, opts Options, e expectation, ms *mismatches) (*FileReport, error) {
	start := time.Now()
	// Stat before Open: opening a FIFO would wait for a writer.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory, not an RDB file", path)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	size := fi.Size()
	rep := &FileReport{Path: path, Bytes: size, DBs: map[int]DBCounts{}}
	defer func() { rep.Seconds = time.Since(start).Seconds() }()
	fail := func(what, got, want string) {
		ms.add(Mismatch{Stage: StageFile, What: what, Got: got, Want: want})
	}
	m := opts.Manifest

	if m != nil && size != m.Bytes {
		what := "file size"
		if size < m.Bytes {
			what = "truncated"
		}
		fail(what, fmt.Sprintf("%d bytes", size), fmt.Sprintf("%d bytes (manifest)", m.Bytes))
	}
	if size < minFileLen {
		fail("truncated", fmt.Sprintf("%d bytes", size), fmt.Sprintf("at least %d bytes (header, EOF marker, checksum)", minFileLen))
		return rep, nil
	}
	var head [headerLen]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	rep.RDBVersion, err = parseHeader(head[:])
	if err != nil {
		fail("header", err.Error(), "")
		return rep, nil
	}
	if m != nil && rep.RDBVersion != m.RDBVersion {
		fail("rdb version", fmt.Sprint(rep.RDBVersion), fmt.Sprintf("%d (manifest)", m.RDBVersion))
	}

	// The checksum first: the parser trusts the lengths it reads, and a damaged one could
	// make it allocate gigabytes. A file whose checksum fails is not parsed.
	sound, err := checkTrailer(ctx, f, size, rep, opts, fail)
	if err != nil || !sound {
		return rep, err
	}
	if err := parseFile(ctx, f, size, rep, opts, fail); err != nil {
		return rep, err
	}
	if rep.Parsed && m != nil {
		compareCounts(rep, m, e, fail)
	}
	return rep, nil
}

// parseHeader returns the version of an RDB header, "REDIS0009".
func parseHeader(b []byte) (int, error) {
	if len(b) < headerLen || string(b[:5]) != "REDIS" {
		return 0, fmt.Errorf("not an RDB file: it begins with %q, not REDIS", b[:min(len(b), 5)])
	}
	v := 0
	for _, c := range b[5:headerLen] {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("not an RDB file: version %q is not a number", b[5:headerLen])
		}
		v = v*10 + int(c-'0')
	}
	return v, nil
}

// checkTrailer computes the checksum over the file and compares it with the trailer and
// with the manifest, and checks that the EOF marker precedes the trailer. It reports
// whether the file is sound enough to parse.
func checkTrailer(ctx context.Context, f *os.File, size int64, rep *FileReport, opts Options, fail func(what, got, want string)) (bool, error) {
	var d encoder.Digest
	body := io.NewSectionReader(f, 0, size-trailerLen)
	buf := make([]byte, readChunk)
	var done int64
	for {
		n, err := body.Read(buf)
		d.Write(buf[:n])
		done += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return false, fmt.Errorf("read %s: %w", rep.Path, err)
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
		opts.progress(Progress{Stage: StageFile, Done: done, Total: 2 * size})
	}
	var tail [1 + trailerLen]byte
	if _, err := f.ReadAt(tail[:], size-int64(len(tail))); err != nil {
		return false, fmt.Errorf("read %s: %w", rep.Path, err)
	}
	var trailer uint64
	for i := trailerLen; i >= 1; i-- {
		trailer = trailer<<8 | uint64(tail[i])
	}
	rep.Checksum = manifest.FormatChecksum(trailer)
	sound := true
	if tail[0] != opEOF {
		fail("truncated or damaged", fmt.Sprintf("the file does not end with the EOF marker 0xff and an 8-byte checksum (byte %d is 0x%02x)",
			size-trailerLen-1, tail[0]), "")
		sound = false
	}
	m := opts.Manifest
	switch crc := d.Sum64(); {
	case trailer == 0:
		rep.ChecksumStatus = ChecksumNone
		if m != nil && m.Checksum != manifest.FormatChecksum(0) {
			fail("checksum", "none (a zero trailer)", m.Checksum+" (manifest)")
		}
	case trailer == crc:
		rep.ChecksumStatus = ChecksumOK
		if m != nil && m.Checksum != rep.Checksum {
			fail("checksum", rep.Checksum, m.Checksum+" (manifest)")
		}
	default:
		rep.ChecksumStatus = ChecksumBad
		fail("checksum", manifest.FormatChecksum(crc)+" (computed over the file)", rep.Checksum+" (its trailer)")
		sound = false
	}
	return sound, nil
}

// countingReader counts the bytes read through it and reports them as progress.
type countingReader struct {
	r          io.Reader
	n          int64
	eof        bool
	onProgress func(done int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err == io.EOF {
		c.eof = true
	}
	c.onProgress(c.n)
	return n, err
}

// parseFile reads every record of the file with github.com/hdt3213/rdb's parser and counts
// the keys per database and type, and the expiries.
func parseFile(ctx context.Context, f *os.File, size int64, rep *FileReport, opts Options, fail func(what, got, want string)) error {
	counter := &countingReader{
		r: io.NewSectionReader(f, 0, size),
		onProgress: func(done int64) {
			opts.progress(Progress{Stage: StageFile, Done: size + done, Total: 2 * size})
		},
	}
	// The parser wraps its input in a bufio.Reader, which keeps one of a large enough size:
	// the reads of the file are large, and progress comes once per read.
	dec := parser.NewDecoder(bufio.NewReaderSize(counter, readChunk)).WithSpecialOpCode()
	hints := map[int]DBCounts{}
	rep.Aux = map[string]string{}
	var records uint64
	err := dec.Parse(func(o parser.RedisObject) bool {
		switch o := o.(type) {
		case *parser.AuxObject:
			// The parser's strings may share its buffers.
			rep.Aux[strings.Clone(o.Key)] = strings.Clone(o.Value)
		case *parser.DBSizeObject:
			hints[o.DB] = DBCounts{Counts: record.Counts{Keys: o.KeyCount, Expires: o.TTLCount}}
		default:
			c := rep.DBs[o.GetDBIndex()]
			if c.Types == nil {
				c.Types = map[string]uint64{}
			}
			c.Keys++
			c.Types[o.GetType()]++
			if exp := o.GetExpiration(); exp != nil {
				c.Expires++
				at := exp.UnixMilli()
				if rep.Expires == 0 || at < rep.MinExpireAtMS {
					rep.MinExpireAtMS = at
				}
				rep.MaxExpireAtMS = max(rep.MaxExpireAtMS, at)
				rep.Expires++
			}
			rep.DBs[o.GetDBIndex()] = c
			rep.Keys++
		}
		records++
		return records%(1<<16) != 0 || ctx.Err() == nil
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	at := int64(dec.GetReadCount())
	switch {
	case err != nil && counter.eof:
		fail("truncated", fmt.Sprintf("the file ends inside a record, at byte %d", size), "")
		return nil
	case err != nil:
		fail("structure", fmt.Sprintf("%s (at byte %d)", err, at), "")
		return nil
	case at != size:
		fail("end of file", fmt.Sprintf("the EOF marker and checksum end at byte %d of %d", at, size), "")
		return nil
	}
	rep.Parsed = true
	// The RESIZEDB hints are the writer's own counts: Redis and rdbgen write real ones.
	for db, h := range hints {
		c := rep.DBs[db]
		if h.Keys != c.Keys || h.Expires != c.Expires {
			fail(fmt.Sprintf("keys in db %d", db), fmt.Sprintf("%d (%d with TTL)", c.Keys, c.Expires),
				fmt.Sprintf("%d (%d with TTL), as its RESIZEDB says", h.Keys, h.Expires))
		}
	}
	return nil
}

// compareCounts compares the counts of a parsed file with the manifest's.
func compareCounts(rep *FileReport, m *manifest.Manifest, e expectation, fail func(what, got, want string)) {
	// The totals only matter when the manifest's own databases add up to other ones.
	if compareDBs(rep.DBs, e, fail) && (rep.Keys != m.Keys || rep.Expires != m.Expires) {
		fail("keys", fmt.Sprintf("%d (%d with TTL)", rep.Keys, rep.Expires),
			fmt.Sprintf("%d (%d with TTL) (manifest)", m.Keys, m.Expires))
	}
	if len(e.parts) == 0 {
		return
	}
	want := e.types()
	for _, db := range unionDBs(rep.DBs, want) {
		if want == nil {
			break
		}
		got := rep.DBs[db].Types
		for _, t := range slices.Sorted(maps.Keys(unionKeys(got, want[db]))) {
			if got[t] != want[db][t] {
				fail(fmt.Sprintf("%s keys in db %d", t, db), fmt.Sprint(got[t]), fmt.Sprintf("%d (manifest)", want[db][t]))
			}
		}
	}
	if lo, hi, ok := e.expiryRange(); ok && rep.Expires > 0 && (rep.MinExpireAtMS < lo || rep.MaxExpireAtMS > hi) {
		fail("expiries", fmt.Sprintf("%s to %s", formatMS(rep.MinExpireAtMS), formatMS(rep.MaxExpireAtMS)),
			fmt.Sprintf("%s to %s (manifest's ttl and jitter)", formatMS(lo), formatMS(hi)))
	}
}

// unionKeys returns a set of the keys of a and b.
func unionKeys(a, b map[string]uint64) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// compareDBs compares counts per database with what e expects, in database order, and
// reports whether they were equal.
func compareDBs(got map[int]DBCounts, e expectation, fail func(what, got, want string)) bool {
	equal := true
	for _, db := range unionDBs(got, e.dbs) {
		g, w := got[db], e.dbs[db]
		if g.Keys != w.Keys {
			fail(fmt.Sprintf("keys in db %d", db), fmt.Sprint(g.Keys), fmt.Sprintf("%d (%s)", w.Keys, e.source))
			equal = false
		}
		if g.Expires != w.Expires {
			fail(fmt.Sprintf("keys with TTL in db %d", db), fmt.Sprint(g.Expires), fmt.Sprintf("%d (%s)", w.Expires, e.source))
			equal = false
		}
	}
	return equal
}

// formatMS renders Unix milliseconds as an RFC 3339 time.
func formatMS(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}
