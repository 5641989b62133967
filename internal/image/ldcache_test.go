package image

import (
	"bytes"
	"encoding/binary"
	"maps"
	"os"
	"slices"
	"testing"
)

// An ldEntry is an entry of an ld.so cache: a library name, its file, the hardware
// capabilities it is for (0: any CPU).
type ldEntry struct {
	name, path string
	hwcap      uint64
}

// ldCacheBytes returns an ld.so cache in the new format holding entries, after an old-format
// one of a single entry when oldFirst is set, as ldconfig writes them.
func ldCacheBytes(oldFirst bool, entries ...ldEntry) []byte {
	strOff := ldCacheNewHeader + len(entries)*ldCacheNewEntry
	var strs, b bytes.Buffer
	b.WriteString(ldCacheNewMagic)
	binary.Write(&b, binary.NativeEndian, [2]uint32{uint32(len(entries)), 0})
	b.Write(make([]byte, 4+4+12))
	add := func(s string) uint32 {
		off := strOff + strs.Len()
		strs.WriteString(s + "\x00")
		return uint32(off)
	}
	for _, e := range entries {
		binary.Write(&b, binary.NativeEndian, struct {
			Flags           int32
			Key, Value, OSV uint32
			Hwcap           uint64
		}{0x0303, add(e.name), add(e.path), 0, e.hwcap})
	}
	b.Write(strs.Bytes())
	if !oldFirst {
		return b.Bytes()
	}
	old := append([]byte(ldCacheOldMagic+"\x00"), 1, 0, 0, 0)
	old = append(old, make([]byte, ldCacheOldEntry+4)...) // one entry, then padding to 8 bytes
	return append(old, b.Bytes()...)
}

func TestParseLDCache(t *testing.T) {
	three := []ldEntry{
		{"libc.so.6", "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libc.so.6", 1 << 62},
		{"libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6", 0},
		{"libm.so.6", "/lib/x86_64-linux-gnu/libm.so.6", 0},
	}
	want := map[string][]string{
		"libc.so.6": {"/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libc.so.6"},
		"libm.so.6": {"/lib/x86_64-linux-gnu/libm.so.6"},
	}
	full := ldCacheBytes(false, three...)
	badString := bytes.Clone(full)
	binary.NativeEndian.PutUint32(badString[ldCacheNewHeader+2*ldCacheNewEntry+4:], uint32(len(full)+5)) // libm's name past the end
	tooMany := bytes.Clone(full)
	binary.NativeEndian.PutUint32(tooMany[20:], 1<<30)
	tests := []struct {
		name string
		in   []byte
		want map[string][]string
	}{
		{"new format, any CPU first", full, want},
		{"old format first", ldCacheBytes(true, three...), want},
		{"no entries", ldCacheBytes(false), map[string][]string{}},
		{"empty file", nil, map[string][]string{}},
		{"old format only", []byte(ldCacheOldMagic + "\x00\x00\x00\x00\x00"), map[string][]string{}},
		{"old format cut short", []byte(ldCacheOldMagic), map[string][]string{}},
		{"new header cut short", full[:ldCacheNewHeader-1], map[string][]string{}},
		{"entries cut short", full[:ldCacheNewHeader+ldCacheNewEntry], map[string][]string{}},
		{"strings cut short", full[:len(full)-1], map[string][]string{"libc.so.6": want["libc.so.6"]}},
		{"a name past the end", badString, map[string][]string{"libc.so.6": want["libc.so.6"]}},
		{"more entries than the file holds", tooMany, map[string][]string{}},
		{"another magic", append([]byte("glibc-ld.so.cache1.2"), full[20:]...), map[string][]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseLDCache(tt.in)
			if !maps.EqualFunc(got, tt.want, slices.Equal[[]string]) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
	// This machine's cache, when it has one, names its libc.
	if b, err := os.ReadFile("/etc/ld.so.cache"); err == nil {
		for _, p := range parseLDCache(b)["libc.so.6"] {
			if _, err := os.Stat(p); err != nil {
				t.Fatalf("/etc/ld.so.cache: libc.so.6 at %s: %v", p, err)
			}
		}
	}
}

// FuzzParseLDCache: any bytes parse without a panic, into names and paths without a NUL.
func FuzzParseLDCache(f *testing.F) {
	f.Add(ldCacheBytes(false, ldEntry{"libc.so.6", "/lib/libc.so.6", 0}))
	f.Add(ldCacheBytes(true, ldEntry{"libc.so.6", "/lib/libc.so.6", 1}))
	if b, err := os.ReadFile("/etc/ld.so.cache"); err == nil && len(b) < 1<<16 {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for name, paths := range parseLDCache(b) {
			if name == "" || bytes.IndexByte([]byte(name), 0) >= 0 || len(paths) == 0 {
				t.Fatalf("name %q, paths %q", name, paths)
			}
		}
	})
}
