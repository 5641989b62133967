package diff

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// A jsonKey is a named key in JSON: key when it is UTF-8, else key_base64 (encoding/json
// writes a []byte as base64).
type jsonKey struct {
	Key
	Name   string `json:"key,omitempty"`
	Base64 []byte `json:"key_base64,omitempty"`
}

// JSON returns r as rdbgen diff --json prints it: the verdict, the counts and the named keys.
func (r *Result) JSON() any {
	keys := make([]jsonKey, len(r.Keys))
	for i, k := range r.Keys {
		keys[i].Key = k
		if utf8.Valid(k.Key) {
			keys[i].Name = string(k.Key)
		} else {
			keys[i].Base64 = k.Key
		}
	}
	return struct {
		Same           bool       `json:"same"`
		KeysA          uint64     `json:"keys_a"`
		KeysB          uint64     `json:"keys_b"`
		Differences    uint64     `json:"differences"`
		DBs            []DBCounts `json:"dbs"`
		Keys           []jsonKey  `json:"keys"`
		FunctionsOnlyA []string   `json:"functions_only_a,omitempty"`
		FunctionsOnlyB []string   `json:"functions_only_b,omitempty"`
		ModuleAuxOnlyA []string   `json:"module_aux_only_a,omitempty"`
		ModuleAuxOnlyB []string   `json:"module_aux_only_b,omitempty"`
	}{r.Same(), r.KeysA, r.KeysB, r.Differences, r.DBs, keys, r.FunctionsOnlyA, r.FunctionsOnlyB, r.ModuleAuxOnlyA, r.ModuleAuxOnlyB}
}

// WriteText writes r for people, as rdbgen diff prints it: the named keys, then the counts.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, k := range r.Keys {
		switch k.Kind {
		case OnlyA:
			fmt.Fprintf(&b, "only in A: db %d %q (%s)\n", k.DB, k.Key, k.A.Type)
		case OnlyB:
			fmt.Fprintf(&b, "only in B: db %d %q (%s)\n", k.DB, k.Key, k.B.Type)
		default:
			fmt.Fprintf(&b, "changed:   db %d %q: %s\n", k.DB, k.Key, strings.Join(k.Fields, ", "))
		}
	}
	if named := uint64(len(r.Keys)); named < r.Differences {
		fmt.Fprintf(&b, "... and %d more\n", r.Differences-named)
	}
	for _, n := range r.FunctionsOnlyA {
		fmt.Fprintf(&b, "function library only in A (or different): %q\n", n)
	}
	for _, n := range r.FunctionsOnlyB {
		fmt.Fprintf(&b, "function library only in B (or different): %q\n", n)
	}
	for _, n := range r.ModuleAuxOnlyA {
		fmt.Fprintf(&b, "%s only in A (or different)\n", n)
	}
	for _, n := range r.ModuleAuxOnlyB {
		fmt.Fprintf(&b, "%s only in B (or different)\n", n)
	}
	for _, d := range r.DBs {
		fmt.Fprintf(&b, "db %d: %d same, %d only in A, %d only in B, %d changed\n", d.DB, d.Same, d.OnlyA, d.OnlyB, d.Changed)
	}
	verdict := "same"
	if !r.Same() {
		verdict = "different"
	}
	fmt.Fprintf(&b, "%s: A %d keys, B %d keys, %d differing%s\n", verdict, r.KeysA, r.KeysB, r.Differences, r.otherDifferences())
	_, err := io.WriteString(w, b.String())
	return err
}

// otherDifferences names what differs beside keys, for the verdict line: "; and 1 function
// library, 2 module AUX data", or "" when nothing does.
func (r *Result) otherDifferences() string {
	var parts []string
	if n := distinct(r.FunctionsOnlyA, r.FunctionsOnlyB); n > 0 {
		parts = append(parts, fmt.Sprintf("%d function %s", n, plural(n, "library", "libraries")))
	}
	if n := distinct(r.ModuleAuxOnlyA, r.ModuleAuxOnlyB); n > 0 {
		parts = append(parts, fmt.Sprintf("%d module AUX data", n))
	}
	if len(parts) == 0 {
		return ""
	}
	return " keys; and " + strings.Join(parts, ", ")
}

// distinct counts the names in a or b (one that differs is in both).
func distinct(a, b []string) int {
	n := len(a)
	for _, x := range b {
		if !slices.Contains(a, x) {
			n++
		}
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
