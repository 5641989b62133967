package cluster

import (
	"bytes"
	"fmt"
	"testing"
)

func TestCRC16CheckValue(t *testing.T) {
	if got := crc16([]byte("123456789")); got != 0x31c3 {
		t.Fatalf("crc16(123456789) = %#04x, want 0x31c3 (CRC16/XMODEM)", got)
	}
}

// crc16Bitwise is CRC16/XMODEM computed bit by bit, as the specification defines it.
func crc16Bitwise(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// TestCRC16Lengths checks the sliced crc16 against the checksum computed bit by bit, for every
// length around the leading partial block and the 8- and 2-byte steps.
func TestCRC16Lengths(t *testing.T) {
	b := make([]byte, 40)
	for i := range b {
		b[i] = byte(i*37 + 11)
	}
	for n := range len(b) + 1 {
		if got, want := crc16(b[:n]), crc16Bitwise(b[:n]); got != want {
			t.Errorf("len %d: crc16 = %#04x, bit by bit %#04x", n, got, want)
		}
	}
}

// FuzzCRC16 checks the sliced crc16 against the checksum computed bit by bit, on any key.
func FuzzCRC16(f *testing.F) {
	f.Add([]byte("key100000001"))
	f.Add([]byte("{user1000}.following"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := crc16(b), crc16Bitwise(b); got != want {
			t.Fatalf("crc16(%q) = %#04x, bit by bit %#04x", b, got, want)
		}
	})
}

// TestSlot checks slots that Redis's own CLUSTER KEYSLOT gives (redis-server 7.0.15), and the
// hash tag rules of the cluster specification.
func TestSlot(t *testing.T) {
	tests := []struct {
		key  string
		slot int
		tag  string // what is hashed
	}{
		{"foo", 12182, "foo"},
		{"bar", 5061, "bar"},
		{"hello", 866, "hello"},
		{"somekey", 11058, "somekey"},
		{"key100000001", 6464, "key100000001"},
		{"", 0, ""},
		{"foo{hash_tag}", 2515, "hash_tag"},
		{"bar{hash_tag}", 2515, "hash_tag"},
		{"{user1000}.following", 3443, "user1000"},
		{"{user1000}.followers", 3443, "user1000"},
		{"user1000", 3443, "user1000"},
		{"foo{}{bar}", 8363, "foo{}{bar}"},      // empty tag: the whole key
		{"foo{{bar}}zap", 4015, "{bar"},         // the first '{', then the first '}' after it
		{"{bar", 4015, "{bar"},                  // no '}': the whole key
		{"foo{bar}{zap}", 5061, "bar"},          // only the first tag counts
		{"{}", 15257, "{}"},                     // empty tag
		{"{", 4092, "{"},                        // no '}'
		{"}", 12090, "}"},                       // no '{'
		{"a{b", 13340, "a{b"},                   // no '}'
		{"}{x}", KeySlot("x"), "x"},             // a '}' before the '{' does not count
		{"\xff{\x00}", KeySlot("\x00"), "\x00"}, // binary keys
	}
	for _, tt := range tests {
		if got := string(HashTag([]byte(tt.key))); got != tt.tag {
			t.Errorf("HashTag(%q) = %q, want %q", tt.key, got, tt.tag)
		}
		if got := Slot([]byte(tt.key)); got != tt.slot {
			t.Errorf("Slot(%q) = %d, want %d", tt.key, got, tt.slot)
		}
	}
}

func BenchmarkSlot(b *testing.B) {
	key := []byte("key100000001")
	for b.Loop() {
		Slot(key)
	}
}

func ExampleSlot() {
	fmt.Println(Slot([]byte("foo")))
	fmt.Println(Slot([]byte("{user1000}.following")) == Slot([]byte("{user1000}.followers")))
	// Output:
	// 12182
	// true
}

// TestIndexBrace puts a '{' at every position of keys of every length up to 24, where the
// 8-byte steps and the byte loop meet, with bytes that differ from '{' by one bit around it.
func TestIndexBrace(t *testing.T) {
	for n := range 25 {
		key := make([]byte, n)
		for i := range key {
			key[i] = '{' ^ byte(1<<(i%8)) // never '{', one bit away
		}
		if got := indexBrace(key); got != -1 {
			t.Fatalf("len %d without '{': %d", n, got)
		}
		for at := range n {
			k := bytes.Clone(key)
			k[at] = '{'
			if at+1 < n {
				k[n-1] = '{' // a later one must not win
			}
			if got := indexBrace(k); got != at {
				t.Fatalf("indexBrace(%q) = %d, want %d", k, got, at)
			}
		}
	}
}

// FuzzIndexBrace checks indexBrace against bytes.IndexByte on any key.
func FuzzIndexBrace(f *testing.F) {
	f.Add([]byte("{user1000}.following"))
	f.Add([]byte("key100000001"))
	f.Fuzz(func(t *testing.T, key []byte) {
		if got, want := indexBrace(key), bytes.IndexByte(key, '{'); got != want {
			t.Fatalf("indexBrace(%q) = %d, bytes.IndexByte %d", key, got, want)
		}
	})
}
