package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// The fixed parts of an RDB file: "REDIS0009", the EOF opcode and the 8-byte checksum.
const (
	headerLen  = 9
	trailerLen = 8
	opEOF      = 0xff
	minFileLen = headerLen + 1 + trailerLen
	// firstChecksumVersion is the first RDB version with a checksum trailer (Redis 2.6):
	// RDB 1 to 4 end with the EOF opcode.
	firstChecksumVersion = 5
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
	if size < headerLen+1 {
		var head [headerLen]byte
		n, _ := f.ReadAt(head[:], 0)
		if err := decoder.MagicError(head[:n]); err != nil {
			fail("header", err.Error(), "") // not an RDB file, rather than a short one
			return rep, nil
		}
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
	if rep.RDBVersion >= firstChecksumVersion && size < minFileLen {
		fail("truncated", fmt.Sprintf("%d bytes", size), fmt.Sprintf("at least %d bytes (header, EOF marker, checksum)", minFileLen))
		return rep, nil
	}
	if m != nil && rep.RDBVersion != m.RDBVersion {
		fail("rdb version", fmt.Sprint(rep.RDBVersion), fmt.Sprintf("%d (manifest)", m.RDBVersion))
	}

	// One pass: the decoder checks the checksum as it reads, and never trusts a length
	// before its bytes have arrived. Only a file that fails is read a second time, for its
	// checksum: damage the checksum explains is reported as that.
	// A file whose last bytes are no EOF marker and checksum is read all the same: Redis
	// stops at the first EOF marker and checksum and ignores what follows, so a file the
	// decoder reads whole before its end is sound, its extra bytes counted.
	trailer, tail, err := readTrailer(f, size, rep)
	if err != nil {
		return rep, err
	}
	p, err := parseFile(ctx, f, size, rep, opts)
	if err != nil {
		return rep, err
	}
	if p.problem != nil && tail != "" {
		fail("truncated or damaged", tail, "")
		return rep, nil
	}
	if p.problem == nil && p.end < size {
		rep.TrailingBytes = size - p.end
		trailer = p.checksum
		rep.Checksum = manifest.FormatChecksum(trailer)
		if rep.RDBVersion < firstChecksumVersion {
			rep.ChecksumStatus = ChecksumAbsent
		}
	}
	if rep.RDBVersion < firstChecksumVersion {
		if m != nil && m.Checksum != manifest.FormatChecksum(0) {
			fail("checksum", fmt.Sprintf("none (RDB %d has no checksum trailer)", rep.RDBVersion), m.Checksum+" (manifest)")
		}
	} else if trailer == 0 {
		rep.ChecksumStatus = ChecksumNone
		if m != nil && m.Checksum != manifest.FormatChecksum(0) {
			fail("checksum", "none (a zero trailer)", m.Checksum+" (manifest)")
		}
	}
	if p.problem != nil {
		// A header the reader refuses (a version it does not know) says more than the
		// checksum of bytes it cannot read.
		if trailer != 0 && p.problem.What != "header" {
			crc, err := fileChecksum(ctx, f, size, rep)
			if err != nil {
				return rep, err
			}
			if crc != trailer {
				rep.ChecksumStatus = ChecksumBad
				fail("checksum", manifest.FormatChecksum(crc)+" (computed over the file)", rep.Checksum+" (its trailer)")
				return rep, nil
			}
		}
		fail(p.problem.What, p.problem.Got, "")
		return rep, nil
	}
	if trailer != 0 {
		rep.ChecksumStatus = ChecksumOK
		if m != nil && m.Checksum != rep.Checksum {
			fail("checksum", rep.Checksum, m.Checksum+" (manifest)")
		}
	}
	generated := m != nil && (m.Dataset != nil || m.Spec != nil)
	if err := p.finish(ctx, f, size, rep, generated, fail); err != nil {
		return rep, err
	}
	if m != nil {
		compareCounts(rep, m, e, fail)
	}
	return rep, nil
}

// parseHeader returns the version of an RDB header, "REDIS0009".
func parseHeader(b []byte) (int, error) {
	if err := decoder.MagicError(b); err != nil {
		return 0, err
	}
	v, _, err := decoder.ParseHeader(b)
	if err != nil && !errors.Is(err, decoder.ErrVersion) {
		return 0, err
	}
	return v, nil
}

// readTrailer reads the checksum trailer of the file's last bytes. tail says, when they are
// not an EOF marker and a checksum (or, for RDB 1 to 4, the marker alone), what they are
// instead; the file may then still end earlier, with extra bytes after its trailer.
func readTrailer(f *os.File, size int64, rep *FileReport) (trailer uint64, tail string, err error) {
	if rep.RDBVersion < firstChecksumVersion {
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err != nil {
			return 0, "", fmt.Errorf("read %s: %w", rep.Path, err)
		}
		rep.Checksum, rep.ChecksumStatus = manifest.FormatChecksum(0), ChecksumAbsent
		if last[0] != opEOF {
			tail = fmt.Sprintf("the file does not end with the EOF marker 0xff (RDB %d has no checksum; byte %d is 0x%02x)", rep.RDBVersion, size-1, last[0])
		}
		return 0, tail, nil
	}
	var b [1 + trailerLen]byte
	if _, err := f.ReadAt(b[:], size-int64(len(b))); err != nil {
		return 0, "", fmt.Errorf("read %s: %w", rep.Path, err)
	}
	for i := trailerLen; i >= 1; i-- {
		trailer = trailer<<8 | uint64(b[i])
	}
	rep.Checksum = manifest.FormatChecksum(trailer)
	if b[0] != opEOF {
		tail = fmt.Sprintf("the file does not end with the EOF marker 0xff and an 8-byte checksum (byte %d is 0x%02x)", size-trailerLen-1, b[0])
	}
	return trailer, tail, nil
}

// fileChecksum computes the checksum of the file's bytes before its trailer.
func fileChecksum(ctx context.Context, f *os.File, size int64, rep *FileReport) (uint64, error) {
	var d rdb.Digest
	body := io.NewSectionReader(f, 0, size-trailerLen)
	buf := make([]byte, readChunk)
	for {
		n, err := body.Read(buf)
		d.Write(buf[:n])
		if err == io.EOF {
			return d.Sum64(), nil
		}
		if err != nil {
			return 0, fmt.Errorf("read %s: %w", rep.Path, err)
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
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
		if !e.within(db, g.Keys, w.Keys) {
			fail(fmt.Sprintf("keys in db %d", db), fmt.Sprint(g.Keys), e.want(db, w.Keys))
			equal = false
		}
		if !e.within(db, g.Expires, w.Expires) {
			fail(fmt.Sprintf("keys with TTL in db %d", db), fmt.Sprint(g.Expires), e.want(db, w.Expires))
			equal = false
		}
	}
	return equal
}

// within tells whether a count of db found, got, is what e expects, want: equal, or fewer by
// at most the keys whose TTL may have lapsed meanwhile.
func (e expectation) within(db int, got, want uint64) bool {
	return got <= want && got+e.lapse[db] >= want
}

// want renders the count of db that e expects, want.
func (e expectation) want(db int, want uint64) string {
	if n := e.lapse[db]; n > 0 {
		return fmt.Sprintf("%d to %d (%s, less the keys expired by then)", want-min(n, want), want, e.source)
	}
	if e.live != nil {
		return fmt.Sprintf("%d (%s, less the keys expired when it was loaded)", want, e.source)
	}
	return fmt.Sprintf("%d (%s)", want, e.source)
}

// formatMS renders Unix milliseconds as an RFC 3339 time.
func formatMS(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}
