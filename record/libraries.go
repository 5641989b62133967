package record

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrDuplicateLibrary reports a function library whose name comes again with other code.
var ErrDuplicateLibrary = errors.New("record: duplicate function library")

// A LibraryRule applies an OnDuplicate rule to function libraries across the places they
// come from (inputs, lines), as readers apply it to keys: a server holds one library of a
// name, and refuses a dump that holds two. A library that comes again with the same code
// is passed on once, silently, whatever the rule; with other code, DupError is an error
// naming the library and both places, DupFirst keeps the first, DupLast the last (after a
// first pass that Notes every library). The zero value is not usable: use NewLibraryRule.
type LibraryRule struct {
	On OnDuplicate
	// Dropped counts the libraries left out for another of the same name and other code.
	Dropped uint64
	kept    map[string]placedCode // name → the library passed on
	last    map[string]placedCode // DupLast: name → the last library of the name
}

// placedCode is a library's code and place.
type placedCode struct {
	at   int64
	code []byte
}

// NewLibraryRule returns a LibraryRule that applies on (DupError for "").
func NewLibraryRule(on OnDuplicate) *LibraryRule {
	if on == "" {
		on = DupError
	}
	return &LibraryRule{On: on, kept: map[string]placedCode{}, last: map[string]placedCode{}}
}

// libraryKey is what libraries are told apart by: the name, or the code of one whose first
// line names none (its writer refuses it).
func libraryKey(code []byte) string {
	if name, err := LibraryName(code); err == nil {
		return name
	}
	return string(code)
}

// Note notes, in DupLast's first pass, the library code at place at; the last noted of a
// name is the one Keep passes on.
func (r *LibraryRule) Note(code []byte, at int64) {
	r.last[libraryKey(code)] = placedCode{at: at, code: bytes.Clone(code)}
}

// Keep reports whether the library code at place at goes on; where names a place in the
// error of DupError ("a.rdb", "line 12").
func (r *LibraryRule) Keep(code []byte, at int64, where func(at int64) string) (bool, error) {
	key := libraryKey(code)
	kept, seen := r.kept[key]
	if seen && bytes.Equal(kept.code, code) {
		return false, nil // written once
	}
	if r.On == DupLast {
		last, noted := r.last[key]
		if noted && (last.at != at || !bytes.Equal(last.code, code)) {
			if !bytes.Equal(last.code, code) {
				r.Dropped++
			}
			return false, nil
		}
	}
	if seen {
		if r.On == DupError {
			return false, fmt.Errorf("%w: %s comes twice with different code, in %s and in %s (--on-duplicate first or last keeps one)",
				ErrDuplicateLibrary, LibraryLabel(code), where(kept.at), where(at))
		}
		r.Dropped++
		return false, nil
	}
	r.kept[key] = placedCode{at: at, code: bytes.Clone(code)}
	return true, nil
}
