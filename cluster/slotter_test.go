package cluster

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"
)

// TestSlotter feeds sequences of keys to a slotter and checks every slot against Slot: keys
// that count up (across a change of length), keys whose last 8 bytes gain or lose a '{' or
// a '}', keys shorter than 8 bytes, repeats and changes of prefix.
func TestSlotter(t *testing.T) {
	var counting []string
	for _, n := range []int{0, 9, 99, 999, 99_999_990, 99_999_999_990} {
		for i := range 20 {
			counting = append(counting, "key"+strconv.Itoa(n+i))
		}
	}
	tests := []struct {
		name string
		keys []string
	}{
		{"counting", counting},
		{"last byte only", []string{"abcdefgh1", "abcdefgh2", "abcdefgh{", "abcdefgh}", "abcdefgh3", "{bcdefgh3", "abcdefgh4",
			"abcdefgh{", "abcdefg{}", "abcdefgh{", "abcdefg{x", "abcdefg{}", "abcdefg{{", "abcdefgh{", "abcdefgx}",
			"0123456789abcdeA", "0123456789abcdeB", "0123456789abcdfB", "0123456789abcdfC", "x123456789abcdfC", "x123456789abcdfD",
			"01234567890abcdeA", "01234567890abcdeB", "01234567891abcdeB", "01234567891abcdeC"}},
		{"last two bytes", []string{"abcdefghij", "abcdefghik", "abcdefgh{k", "abcdefgh{}", "abcdefgh}{", "abcdefgh{{", "abcdefg{{{",
			"abcdefghzz", "abcdefgh{x", "abcdefg{x}", "abcdefghzz", "abcdefgh}z", "a{cdefgh}z", "abcdefghzz",
			"0123456789abcdefAB", "0123456789abcdefAC", "0123456789abcdef{}", "0123456789abcdeg{}", "0123456789abcdefXY",
			"0123456789abcdefXYZ", "0123456789abcdefXY{", "0123456789abcdefX{}"}},
		{"braces in the tail", []string{"user:00000001", "user:0000{001", "user:0000{0}1", "user:0000{x}1", "user:00000002", "user:{0000003", "user:}0000003", "user:{0000}03"}},
		{"brace in the head", []string{"{user}:00000001", "{user}:00000002", "{user:00000003", "{user:00000004", "x{user}:00000005"}},
		{"short keys", []string{"a", "ab", "abcdefg", "abcdefgh", "abcdefgi", "b", "abcdefgj", ""}},
		{"repeats", []string{"key100000001", "key100000001", "key100000001", "key100000002"}},
		{"prefixes", []string{"aaaa12345678", "bbbb12345678", "bbbb12345679", "bbbbb2345679", "bbbb12345679"}},
		{"binary", []string{"\x00\x00\x00\x00\x00\x00\x00\x00", "\x00\x00\x00\x00\x00\x00\x00\x01", "\xff\xff\xff\xff\xff\xff\xff\xff", "\x7b\x7d\x00\x00\x00\x00\x00\x01"}},
	}
	for _, tt := range tests {
		s := newSlotter()
		for _, k := range tt.keys {
			if got, want := s.slot([]byte(k)), KeySlot(k); got != want {
				t.Errorf("%s: slot of %q = %d, want %d", tt.name, k, got, want)
			}
		}
	}
}

// FuzzSlotter checks a slotter against Slot on the lines of any input, each followed by
// itself with numbers appended that count up.
func FuzzSlotter(f *testing.F) {
	f.Add([]byte("key100000001\nkey100000002\n{user1000}.following\nuser:{12345678"))
	f.Add([]byte("abcdefgh\nabcdefg{\nabcdefgh}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newSlotter()
		for line := range bytes.SplitSeq(data, []byte("\n")) {
			for i := range 12 {
				k := line
				if i > 0 {
					k = fmt.Appendf(bytes.Clone(line), "%d", 98+i)
				}
				if got, want := s.slot(k), Slot(k); got != want {
					t.Fatalf("slot of %q = %d, want %d", k, got, want)
				}
			}
		}
	})
}

// BenchmarkSlotter hashes numbered keys, one after the other, as a split of the default
// dataset does. Compare BenchmarkSlot.
func BenchmarkSlotter(b *testing.B) {
	key := []byte("key100000001")
	s := newSlotter()
	i := 0
	for b.Loop() {
		key[11] = '0' + byte(i%10)
		i++
		s.slot(key)
	}
}
