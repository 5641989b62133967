package encoder

import (
	"github.com/rdbgen/rdbgen/rdb/internal/listpack"
	"github.com/rdbgen/rdbgen/rdb/internal/ziplist"
)

// A packer builds one listpack (RDB 10+) or ziplist (before) at the end of a byte slice: the
// compact container of small hashes, sorted sets and sets, and of quicklist nodes. The
// encodings are rdb/internal/listpack's and rdb/internal/ziplist's.
type packer struct {
	ziplist bool
	start   int // offset of the container in the slice
	count   int // entries so far
	prev    int // ziplist: size of the last entry
	tail    int // ziplist: offset of the last entry from start
}

// begin starts a container at the end of b.
func (p *packer) begin(b []byte) []byte {
	p.start, p.count, p.prev = len(b), 0, 0
	if p.ziplist {
		p.tail = ziplist.HeaderLen
		return ziplist.AppendHeader(b)
	}
	return listpack.AppendHeader(b)
}

// add appends s as an entry, stored as an integer when it is the canonical form of one.
func (p *packer) add(b, s []byte) []byte {
	if !p.ziplist {
		p.count++
		return listpack.AppendEntry(b, s)
	}
	at := len(b)
	return p.endZiplistEntry(ziplist.AppendString(ziplist.AppendPrevLen(b, p.prev), s), at)
}

// addInt appends the integer entry v.
func (p *packer) addInt(b []byte, v int64) []byte {
	if !p.ziplist {
		p.count++
		return listpack.AppendInt(b, v)
	}
	at := len(b)
	return p.endZiplistEntry(ziplist.AppendInt(ziplist.AppendPrevLen(b, p.prev), v), at)
}

// endZiplistEntry records the ziplist entry that starts at b[at:].
func (p *packer) endZiplistEntry(b []byte, at int) []byte {
	p.count++
	p.tail, p.prev = at-p.start, len(b)-at
	return b
}

// size returns the bytes the container would take if finished now.
func (p *packer) size(b []byte) int { return len(b) - p.start + 1 }

// finish terminates the container and fills in its header.
func (p *packer) finish(b []byte) []byte {
	if p.ziplist {
		return ziplist.Finish(b, p.start, p.tail, p.count)
	}
	return listpack.Finish(b, p.start, p.count)
}
