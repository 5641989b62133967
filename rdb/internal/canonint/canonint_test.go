package canonint

import (
	"strconv"
	"testing"
)

// edges are strings at the edges of the int64 range and of the canonical form.
var edges = []string{
	"0", "1", "-1", "9", "10", "12", "13", "127", "128", "-128", "-129", "4095", "4096", "-4096",
	"-4097", "32767", "32768", "-32768", "-32769", "8388607", "8388608", "-8388608", "-8388609",
	"2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807",
	"9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
	"18446744073709551616", "99999999999999999999", "-99999999999999999999", "",
	"-", "-0", "00", "01", "+1", " 1", "1 ", "1a", "0x1", "١",
}

func TestParse(t *testing.T) {
	for _, s := range edges {
		check(t, s)
	}
}

// check compares Parse with strconv: s is an integer exactly when it is the canonical
// decimal of an int64.
func check(t *testing.T, s string) {
	t.Helper()
	v, ok := Parse([]byte(s))
	pv, err := strconv.ParseInt(s, 10, 64)
	canonical := err == nil && strconv.FormatInt(pv, 10) == s
	if ok != canonical || ok && v != pv {
		t.Errorf("Parse(%q) = %d, %v; strconv says %d, canonical %v", s, v, ok, pv, canonical)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range edges {
		f.Add(s)
	}
	f.Fuzz(check)
}
