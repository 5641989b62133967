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
func (r *LibraryRule) Note(code []byte, at int64) { r.note(libraryKey(code), code, at) }

// note notes data of key at place at, for DupLast.
func (r *LibraryRule) note(key string, data []byte, at int64) {
	r.last[key] = placedCode{at: at, code: bytes.Clone(data)}
}

// Keep reports whether the library code at place at goes on; where names a place in the
// error of DupError ("a.rdb", "line 12").
func (r *LibraryRule) Keep(code []byte, at int64, where func(at int64) string) (bool, error) {
	keep, first, conflict := r.keep(libraryKey(code), code, at)
	if conflict {
		return false, fmt.Errorf("%w: %s comes twice with different code, in %s and in %s (--on-duplicate first or last keeps one)",
			ErrDuplicateLibrary, LibraryLabel(code), where(first), where(at))
	}
	return keep, nil
}

// keep applies the rule to data of key at place at: whether it goes on, and under DupError
// a conflict with the data kept from place first.
func (r *LibraryRule) keep(key string, data []byte, at int64) (keep bool, first int64, conflict bool) {
	kept, seen := r.kept[key]
	if seen && bytes.Equal(kept.code, data) {
		return false, 0, false // written once
	}
	if r.On == DupLast {
		last, noted := r.last[key]
		if noted && (last.at != at || !bytes.Equal(last.code, data)) {
			if !bytes.Equal(last.code, data) {
				r.Dropped++
			}
			return false, 0, false
		}
	}
	if seen {
		if r.On == DupError {
			return false, kept.at, true
		}
		r.Dropped++
		return false, 0, false
	}
	r.kept[key] = placedCode{at: at, code: bytes.Clone(data)}
	return true, 0, false
}

// ErrDuplicateModuleAux reports module AUX data of one module (and place, before or after
// the keys) that comes again with other bytes.
var ErrDuplicateModuleAux = errors.New("record: module AUX data differs")

// A ModuleAuxRule applies an OnDuplicate rule to module AUX data across the places it comes
// from, as a LibraryRule does to libraries: a module saves its AUX data once before the keys
// and once after, and a file that holds it twice makes the module load both (what it does
// with the second is its own). The same bytes again are passed on once, silently; other
// bytes are, under DupError, an error naming the module and both places; DupFirst keeps
// the first, DupLast the last (after a first pass that Notes all). Its Dropped counts the
// AUX data left out for other bytes. The zero value is not usable: use NewModuleAuxRule.
type ModuleAuxRule struct{ LibraryRule }

// NewModuleAuxRule returns a ModuleAuxRule that applies on (DupError for "").
func NewModuleAuxRule(on OnDuplicate) *ModuleAuxRule {
	return &ModuleAuxRule{*NewLibraryRule(on)}
}

// auxKey is what module AUX data is told apart by: its module and place.
func auxKey(a *ModuleAux) string { return fmt.Sprintf("%d/%d", a.ModuleID, a.When) }

// Note notes, in DupLast's first pass, the AUX data a at place at.
func (r *ModuleAuxRule) Note(a *ModuleAux, at int64) { r.note(auxKey(a), a.Value, at) }

// Keep reports whether the AUX data a at place at goes on; where names a place in the
// error of DupError.
func (r *ModuleAuxRule) Keep(a *ModuleAux, at int64, where func(at int64) string) (bool, error) {
	keep, first, conflict := r.keep(auxKey(a), a.Value, at)
	if conflict {
		return false, fmt.Errorf("%w: module %s's AUX data comes twice with different bytes, in %s and in %s (--on-duplicate first or last keeps one)",
			ErrDuplicateModuleAux, ModuleName(a.ModuleID), where(first), where(at))
	}
	return keep, nil
}
