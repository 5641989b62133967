package memory

import "testing"

// The trees rax.c builds, worked out by hand from raxGenericInsert: node bytes are a 4-byte
// header, the bytes, padding to 8, the child pointers and a value pointer where a key ends.
func TestRaxTreeBytes(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		want int64 // under jemalloc
	}{
		// rax 24 (32) and an empty head of 8.
		{"empty", nil, 32 + 8},
		// a compressed head of 16 bytes (32) and a leaf with its value (16).
		{"one key", []string{"0123456789abcdef"}, 32 + 32 + 16},
		// "ab" then "ac": the compressed "ab" splits into "a" (16), a node of b and c
		// (4+2+2+16 = 24, 32) and two leaves.
		{"split", []string{"ab", "ac"}, 32 + 16 + 32 + 16 + 16},
		// "abc" then "ab": the key ends inside "abc" (ALGO 2): the compressed "abc" becomes
		// "ab" (16), then "c" in a node that is a key (4+1+3+8+8 = 24, 32), then the leaf.
		{"key inside", []string{"abc", "ab"}, 32 + 16 + 32 + 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tree raxTree
			for _, k := range c.keys {
				tree.insert([]byte(k))
			}
			if got := tree.bytes(jemalloc); got != c.want {
				t.Errorf("%q: %d bytes, want %d", c.keys, got, c.want)
			}
		})
	}
}
