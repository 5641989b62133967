package export

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/rdbgen/rdbgen/importer"
)

// unescape reads a JSON string as rdbgen's import reads it: the key of an object.
func unescape(t *testing.T, s []byte) []byte {
	t.Helper()
	obj := append(append([]byte(`{"key":`), s...), `,"value":""}`...)
	rec, err := importer.NewJSONReader(bytes.NewReader(obj)).Read()
	if err != nil {
		t.Fatalf("import of %s: %v", obj, err)
	}
	return rec.Key
}

// FuzzString: every byte string is written as valid JSON in valid UTF-8 that import reads
// back as the same bytes, and that encoding/json reads as the string Go makes of the bytes
// (invalid bytes as U+FFFD, as it reads hdt3213's raw output).
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\x00b\xffc\r\n", "é\xc3(\xed\xa0\x80€\U0001F600", "\"\\/\b\f\x7f", "\xef\xbf\xbd", "\u2028"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		out := appendString(nil, s)
		if !json.Valid(out) || !utf8.Valid(out) {
			t.Fatalf("%q: not valid JSON in UTF-8: %s", s, out)
		}
		if back := unescape(t, out); !bytes.Equal(back, s) {
			t.Fatalf("%q: read back %q", s, back)
		}
		var std string
		if err := json.Unmarshal(out, &std); err != nil || !sameLossy(std, s) {
			t.Fatalf("%q: encoding/json reads %q (%v)", s, std, err)
		}
	})
}

// sameLossy reports whether std is s with each invalid byte replaced by U+FFFD.
func sameLossy(std string, s []byte) bool {
	var b []byte
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		b = utf8.AppendRune(b, r)
		s = s[n:]
	}
	return std == string(b)
}

// TestScore: scores read back as the same float64, and as encoding/json writes them.
func TestScore(t *testing.T) {
	for _, f := range []float64{0, 1, -1.5, 1e20, 1e21, 1e-6, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1, 1.0 / 3} {
		got := appendScore(nil, f)
		want, _ := json.Marshal(f)
		if string(got) != string(want) {
			t.Errorf("%v: %s, encoding/json writes %s", f, got, want)
		}
		if back, err := strconv.ParseFloat(string(got), 64); err != nil || back != f {
			t.Errorf("%v: %s reads back as %v", f, got, back)
		}
	}
}
