package memory

import "math/bits"

// What the server allocates, in bytes, on 64-bit Redis 7.0 built with its bundled jemalloc
// (Debian's 7.0.15: malloc=jemalloc-5.3.0). used_memory counts malloc_usable_size of every
// allocation, that is the jemalloc size class of the request, so every size below goes
// through sizeClass.
const (
	robjSize         = 16 // redisObject: type, encoding, lru (4 bytes), refcount, ptr
	dictEntrySize    = 24 // key, value union, next (7.0; Redis 8 / Valkey 8 drop entries of sets, Valkey 8.1 all)
	dictSize         = 56 // dict: type, two tables, two used counts, rehashidx, pauserehash, size exponents
	dictMinBuckets   = 4  // DICT_HT_INITIAL_SIZE
	quicklistSize    = 40 // quicklist: head, tail, count, len, fill/compress/bookmark bit fields
	qlNodeSize       = 40 // quicklistNode: prev, next, entry, sz, bit fields
	zsetSize         = 16 // zset: dict, zsl
	zskiplistSize    = 32 // zskiplist: header, tail, length, level
	zslNodeSize      = 24 // zskiplistNode without its levels: ele, score, backward
	zslLevelSize     = 16 // one level of a node: forward, span
	zslMaxLevel      = 32 // ZSKIPLIST_MAXLEVEL: the header node has them all
	zslP             = 0.25
	intsetHeaderSize = 8  // encoding, length
	embstrOverhead   = 20 // robj, sdshdr8 and the terminating NUL in one allocation
	embstrLimit      = 44 // OBJ_ENCODING_EMBSTR_SIZE_LIMIT
	sharedIntegers   = 10000
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

// dictEntryClass is the allocation of a dictEntry.
var dictEntryClass = sizeClass(dictEntrySize)

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

// sdsSize returns the allocation of an sds string of n bytes, made exactly to size as the
// RDB loader makes keys, hash fields and values, and set and sorted-set members.
func sdsSize(n int) int64 {
	if uint(n) < uint(len(sdsSmall)) {
		return sdsSmall[n]
	}
	return sdsAlloc(n)
}

// sdsAlloc is sdsSize worked out.
func sdsAlloc(n int) int64 { return sizeClass(sdsHeader(n) + int64(n) + 1) }

// sdsSmall holds sdsSize of the short strings most names and values are, worked out once.
var sdsSmall = func() (t [128]int64) {
	for n := range t {
		t[n] = sdsAlloc(n)
	}
	return t
}()

// buckets returns the bucket count of a dict sized for n entries: the next power of two,
// at least 4 (_dictNextExp), as RESIZEDB and dictExpand size tables at load.
func buckets(n uint64) uint64 {
	if n <= dictMinBuckets {
		return dictMinBuckets
	}
	return 1 << bits.Len64(n-1)
}

// dictTable returns the bucket array of a dict sized for n entries.
func dictTable(n uint64) int64 { return sizeClass(int64(8 * buckets(n))) }

// zslNodeMean is the expected allocation of a skiplist node, whose level zslRandomLevel
// draws: level L with probability (1-p)·p^(L-1), capped at 32.
var zslNodeMean = func() float64 {
	mean, p := 0.0, 1.0
	for level := 1; level <= zslMaxLevel; level++ {
		q := p * (1 - zslP)
		if level == zslMaxLevel {
			q = p
		}
		mean += q * float64(sizeClass(zslNodeSize+zslLevelSize*int64(level)))
		p *= zslP
	}
	return mean
}()

// zslHeader is the skiplist's header node, which has every level.
var zslHeader = sizeClass(zslNodeSize + zslLevelSize*zslMaxLevel)
