package memory

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
)

// What the server allocates, in bytes, on 64-bit Redis 7.0. used_memory counts
// malloc_usable_size of every allocation: with the bundled jemalloc (Debian's 7.0.15:
// malloc=jemalloc-5.3.0) the size class of the request, with glibc's malloc (MALLOC=libc)
// its chunk less the header; every size below goes through an allocator.
const (
	robjSize      = 16 // redisObject: type, encoding, lru (4 bytes), refcount, ptr
	dictEntrySize = 24 // key, value union, next (7.0; Redis 8 / Valkey 8 drop entries of sets, Valkey 8.1 all)
	// embeddedEntrySize is Valkey 8.0's main-dict entry before the key's sds it holds:
	// value union, next, the sds header's size.
	embeddedEntrySize = 17
	dictSize          = 56 // dict: type, two tables, two used counts, rehashidx, pauserehash, size exponents
	dictSizeBefore70  = 96 // dict before 7.0: type, privdata, two dictht of 32 bytes, rehashidx, pauserehash
	ziplistOverhead   = 11 // a ziplist's zlbytes, zltail, zllen and end byte
	dictMinBuckets    = 4  // DICT_HT_INITIAL_SIZE
	quicklistSize     = 40 // quicklist: head, tail, count, len, fill/compress/bookmark bit fields
	qlNodeSize        = 40 // quicklistNode: prev, next, entry, sz, bit fields
	zsetSize          = 16 // zset: dict, zsl
	zskiplistSize     = 32 // zskiplist: header, tail, length, level
	zslNodeSize       = 24 // zskiplistNode without its levels: ele, score, backward
	zslLevelSize      = 16 // one level of a node: forward, span
	zslMaxLevel       = 32 // ZSKIPLIST_MAXLEVEL: the header node has them all
	zslP              = 0.25
	intsetHeaderSize  = 8  // encoding, length
	embstrOverhead    = 20 // robj, sdshdr8 and the terminating NUL in one allocation
	embstrLimit       = 44 // OBJ_ENCODING_EMBSTR_SIZE_LIMIT
	sharedIntegers    = 10000
	// dictEntryNoValueSize is a set member's entry in Redis 7.2+ when its bucket is taken.
	dictEntryNoValueSize = 16
	// listpackExSize is a small hash with field TTLs (7.4): expiry metadata, key, listpack.
	listpackExSize = 32
	// fieldTTLBytes is what a field with a TTL adds in a hash's dict (7.4): its expiry
	// metadata and its share of the field-expiry buckets; measured on redis-7.4.1.
	fieldTTLBytes = 30
)

// sizeClass returns the bytes jemalloc 5 hands out for a request of n bytes (16-byte
// quantum, four classes per doubling above 128 bytes): 8, 16, 32, 48 … 128, 160, 192, 224,
// 256, 320 … 16 KiB, 20 KiB …, the same spacing for large and huge requests.
func sizeClass(n int64) int64 {
	switch {
	case n <= 0:
		return 0
	case n <= 8:
		return 8
	case n <= 128:
		return (n + 15) &^ 15
	}
	lg := bits.Len64(uint64(n-1)) - 1 // floor(log2(n-1)): n is in (2^lg, 2^(lg+1)]
	delta := int64(1) << (lg - 2)
	return (n + delta - 1) &^ (delta - 1)
}

// sdsHeader returns the header bytes of an sds string of n bytes (sdsReqType; an empty
// string gets an sdshdr8, as sdsnewlen gives it).
func sdsHeader(n int) int64 {
	switch {
	case n == 0:
		return 3
	case n < 1<<5:
		return 1 // sdshdr5
	case n < 1<<8:
		return 3 // sdshdr8
	case n < 1<<16:
		return 5 // sdshdr16
	case uint64(n) < 1<<32:
		return 9 // sdshdr32
	default:
		return 17 // sdshdr64
	}
}

// buckets returns the bucket count of a dict sized for n entries: the next power of two,
// at least 4 (_dictNextExp), as RESIZEDB and dictExpand size tables at load.
func buckets(n uint64) uint64 {
	if n <= dictMinBuckets {
		return dictMinBuckets
	}
	return 1 << bits.Len64(n-1)
}

// glibcUsable returns malloc_usable_size of a glibc malloc request of n bytes on 64-bit
// Linux, what a server built with MALLOC=libc counts: chunks of the request and an 8-byte
// header rounded up to 16, at least 32, less the header; requests from 128 KiB (the
// default mmap threshold) are pages of their own, less a 16-byte header.
func glibcUsable(n int64) int64 {
	switch {
	case n <= 0:
		n = 8 // MALLOC_MIN_SIZE: zmalloc asks for at least a long
	case n >= 128<<10:
		return (n+16+4095)&^4095 - 16
	}
	return max(32, (n+8+15)&^15) - 8
}

// An allocator is what used_memory counts for an allocation under one malloc, with the
// sizes the model asks for most worked out once.
type allocator struct {
	name string
	size func(n int64) int64 // bytes counted for a request of n
	// dictEntry is the allocation of a dictEntry; robj of a redisObject.
	dictEntry, robj int64
	sdsSmall        [128]int64 // sds of the short strings most names and values are
	zslNodeMean     float64    // the expected allocation of a skiplist node
	zslHeader       int64      // the skiplist's header node, which has every level
}

// The allocators the model knows: jemalloc, which Redis and Valkey builds use, and glibc.
var (
	jemalloc = newAllocator("jemalloc", sizeClass)
	libc     = newAllocator("libc", glibcUsable)
)

func newAllocator(name string, size func(int64) int64) *allocator {
	a := &allocator{name: name, size: size, dictEntry: size(dictEntrySize), robj: size(robjSize),
		zslHeader: size(zslNodeSize + zslLevelSize*zslMaxLevel)}
	for n := range a.sdsSmall {
		a.sdsSmall[n] = a.sdsAlloc(n)
	}
	// A node's level is drawn by zslRandomLevel: level L with probability (1-p)·p^(L-1),
	// capped at 32.
	p := 1.0
	for level := 1; level <= zslMaxLevel; level++ {
		q := p * (1 - zslP)
		if level == zslMaxLevel {
			q = p
		}
		a.zslNodeMean += q * float64(size(zslNodeSize+zslLevelSize*int64(level)))
		p *= zslP
	}
	return a
}

// allocatorNamed returns the allocator INFO's mem_allocator names: "" and "jemalloc…" are
// jemalloc, "libc" glibc's malloc.
func allocatorNamed(name string) (*allocator, error) {
	switch {
	case name == "" || strings.HasPrefix(name, "jemalloc"):
		return jemalloc, nil
	case name == "libc":
		return libc, nil
	}
	return nil, fmt.Errorf("unknown allocator %q: want jemalloc or libc (INFO memory's mem_allocator)", name)
}

// sds returns the allocation of an sds string of n bytes, made exactly to size as the RDB
// loader makes keys, hash fields and values, and set and sorted-set members.
func (a *allocator) sds(n int) int64 {
	if uint(n) < uint(len(a.sdsSmall)) {
		return a.sdsSmall[n]
	}
	return a.sdsAlloc(n)
}

// sdsAlloc is sds worked out.
func (a *allocator) sdsAlloc(n int) int64 { return a.size(sdsHeader(n) + int64(n) + 1) }

// collisions returns the expected number of members of a dict sized for n whose bucket
// another member took first: n less the buckets not empty, m·(1-(1-1/m)^n).
func collisions(n uint64) float64 {
	m := float64(buckets(n))
	return float64(n) - m*(1-math.Pow(1-1/m, float64(n)))
}

// dictTable returns the bucket array of a dict sized for n entries.
func (a *allocator) dictTable(n uint64) int64 { return a.size(int64(8 * buckets(n))) }
