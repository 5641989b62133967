package image

import (
	"bytes"
	"encoding/binary"
)

// The ld.so cache (/etc/ld.so.cache, written by ldconfig) maps library names to the files
// glibc's dynamic loader loads for them. Its "new" format, which glibc has written since 2.32
// (and, after the old one, since 2.2):
//
//	magic "glibc-ld.so.cache" "1.1", nlibs uint32, len_strings uint32, flags uint8,
//	3 bytes of padding, extension_offset uint32, 3 unused uint32: 48 bytes; then nlibs
//	entries of flags int32, key uint32, value uint32, osversion uint32, hwcap uint64 (24
//	bytes), key and value being offsets of NUL-ended strings from the header's start.
//
// The old format ("ld.so-1.7.0", nlibs uint32, entries of 12 bytes) may come first, the new
// header then following on an 8-byte boundary. Numbers are in the machine's byte order.
const (
	ldCacheOldMagic   = "ld.so-1.7.0"
	ldCacheNewMagic   = "glibc-ld.so.cache1.1"
	ldCacheNewHeader  = 48
	ldCacheNewEntry   = 24
	ldCacheOldHeader  = 16
	ldCacheOldEntry   = 12
	ldCacheHwcapField = 16 // offset of hwcap in a new entry
)

// parseLDCache returns the files the ld.so cache b names for each library name, those for
// no particular hardware capability first (the ones that run on any CPU of the
// architecture), in the cache's order otherwise. A cache it cannot read yields an empty
// map: the loader then searches the default directories, as resolve does.
func parseLDCache(b []byte) map[string][]string {
	out := map[string][]string{}
	if bytes.HasPrefix(b, []byte(ldCacheOldMagic)) {
		if len(b) < ldCacheOldHeader {
			return out
		}
		n := uint64(binary.NativeEndian.Uint32(b[12:16]))
		start := (ldCacheOldHeader + n*ldCacheOldEntry + 7) &^ 7
		if start > uint64(len(b)) {
			return out
		}
		b = b[start:]
	}
	if len(b) < ldCacheNewHeader || !bytes.HasPrefix(b, []byte(ldCacheNewMagic)) {
		return out
	}
	n := uint64(binary.NativeEndian.Uint32(b[20:24]))
	if n > uint64(len(b)-ldCacheNewHeader)/ldCacheNewEntry {
		return out
	}
	str := func(off uint32) (string, bool) {
		if uint64(off) >= uint64(len(b)) {
			return "", false
		}
		s := b[off:]
		end := bytes.IndexByte(s, 0)
		if end < 0 {
			return "", false
		}
		return string(s[:end]), true
	}
	var anyCPU, someCPU [][2]string
	for i := uint64(0); i < n; i++ {
		e := b[ldCacheNewHeader+i*ldCacheNewEntry:][:ldCacheNewEntry]
		key, ok1 := str(binary.NativeEndian.Uint32(e[4:8]))
		value, ok2 := str(binary.NativeEndian.Uint32(e[8:12]))
		if !ok1 || !ok2 || key == "" || value == "" {
			continue
		}
		if binary.NativeEndian.Uint64(e[ldCacheHwcapField:]) == 0 {
			anyCPU = append(anyCPU, [2]string{key, value})
		} else {
			someCPU = append(someCPU, [2]string{key, value})
		}
	}
	for _, kv := range append(anyCPU, someCPU...) {
		out[kv[0]] = append(out[kv[0]], kv[1])
	}
	return out
}
