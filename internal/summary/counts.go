package summary

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/resp"
)

// ImportCounts are the counts that the summaries of an import add to a generation's.
type ImportCounts struct {
	Records    uint64 `json:"records,omitempty"`
	Skipped    uint64 `json:"skipped,omitempty"`
	Duplicates uint64 `json:"duplicates,omitempty"`
	Expired    uint64 `json:"expired,omitempty"`
	// ExpiredFields counts the hash fields a convert dropped as expired, and ExpiredHashes
	// the hashes it dropped because every field had.
	ExpiredFields uint64 `json:"expired_fields,omitempty"`
	ExpiredHashes uint64 `json:"expired_hashes,omitempty"`

	FunctionCounts
	// NewerDropped counts what --drop-newer dropped (decoder.Stats.NewerDropped).
	NewerDropped map[string]uint64 `json:"newer_dropped,omitempty"`
	// KeyPatterns are the key patterns of an ACL user that limited a live server's scan to
	// the keys the user may read (live.Source.KeyPatterns), and OutsideKeyPatterns counts
	// the keys the scan listed and left out as outside them.
	KeyPatterns        []string `json:"key_patterns,omitempty"`
	OutsideKeyPatterns uint64   `json:"outside_key_patterns,omitempty"`
}

// KeyPatternsNote tells, for the one-line summary, that a scan read only the keys of the
// user's key patterns; "" when it was not limited.
func (ic ImportCounts) KeyPatternsNote() string {
	if ic.KeyPatterns == nil {
		return ""
	}
	note := fmt.Sprintf("; read only the keys matching %s, the user's key patterns (ACL GETUSER)", strings.Join(ic.KeyPatterns, " "))
	if ic.OutsideKeyPatterns > 0 {
		note += fmt.Sprintf(": %d other keys were left out", ic.OutsideKeyPatterns)
	}
	return note
}

// ImportStats returns the summary's counts of an import.
func ImportStats(s importer.Stats) ImportCounts {
	return ImportCounts{Records: s.Records, Skipped: s.Skipped, Duplicates: s.Duplicates, Expired: s.Expired}
}

// ImportNotes tells what the reading of a JSON or CSV input left out or what Redis will
// drop.
func ImportNotes(in *input.Input) string {
	s := in.Import.Stats
	var notes []string
	if s.Skipped > 0 {
		notes = append(notes, fmt.Sprintf("skipped %d invalid records (the first: %s: %v)", s.Skipped, in.Name, s.FirstSkipped))
	}
	if s.Duplicates > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d duplicate keys", s.Duplicates))
	}
	if s.Expired > 0 {
		notes = append(notes, fmt.Sprintf("%d keys have already expired: Redis drops them at load", s.Expired))
	}
	if len(notes) == 0 {
		return ""
	}
	return "; " + strings.Join(notes, "; ")
}

// FunctionCounts are the function libraries a run carried and those --drop-functions left
// out, and the module AUX records --drop-module-aux left out, as its summary reports them.
type FunctionCounts struct {
	Functions        uint64 `json:"functions,omitempty"`
	FunctionsDropped uint64 `json:"functions_dropped,omitempty"`
	// FunctionsDuplicate counts the libraries left out under --on-duplicate first or last
	// for another of the same name with other code.
	FunctionsDuplicate uint64 `json:"functions_duplicate,omitempty"`
	ModuleAuxDropped   uint64 `json:"module_aux_dropped,omitempty"`
	// ModuleAuxDuplicate counts the module AUX records left out under --on-duplicate first
	// or last for another of the same module with other bytes.
	ModuleAuxDuplicate uint64 `json:"module_aux_duplicate,omitempty"`
}

// Notes tells the counts for the one-line summary; verb introduces the libraries carried.
func (f FunctionCounts) Notes(verb string) []string {
	var notes []string
	if f.Functions > 0 {
		notes = append(notes, fmt.Sprintf("%s %d function %s", verb, f.Functions, human.Plural(f.Functions, "library", "libraries")))
	}
	if f.FunctionsDropped > 0 {
		notes = append(notes, fmt.Sprintf("left out %d function %s (--drop-functions)", f.FunctionsDropped, human.Plural(f.FunctionsDropped, "library", "libraries")))
	}
	if f.FunctionsDuplicate > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d function %s that came again with other code (--on-duplicate)", f.FunctionsDuplicate, human.Plural(f.FunctionsDuplicate, "library", "libraries")))
	}
	if f.ModuleAuxDuplicate > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d module AUX %s that came again with other bytes (--on-duplicate)", f.ModuleAuxDuplicate, human.Plural(f.ModuleAuxDuplicate, "record", "records")))
	}
	if f.ModuleAuxDropped > 0 {
		notes = append(notes, fmt.Sprintf("left out %d module AUX %s (--drop-module-aux)", f.ModuleAuxDropped, human.Plural(f.ModuleAuxDropped, "record", "records")))
	}
	return notes
}

// Suffix returns the notes as the end of a one-line summary: "; " before each, or "".
func (f FunctionCounts) Suffix(verb string) string {
	var s string
	for _, n := range f.Notes(verb) {
		s += "; " + n
	}
	return s
}

// ConvertCounts returns the summary's counts of a dump converted, read counting what its
// reading saw: the records of keys that came again, and those --drop-newer left out;
// dupLibraries counts the function libraries left out as duplicates (merge).
func ConvertCounts(stats convert.Stats, read decoder.Stats, dupLibraries uint64) ImportCounts {
	return ImportCounts{Records: stats.Read + read.Duplicates, Skipped: stats.Unsupported, Duplicates: read.Duplicates + stats.Duplicates, NewerDropped: read.NewerDropped,
		ExpiredFields: stats.ExpiredFields, ExpiredHashes: stats.EmptiedHashes,
		FunctionCounts: FunctionCounts{Functions: stats.Functions, FunctionsDropped: stats.FunctionsDropped, FunctionsDuplicate: dupLibraries}}
}

// ConvertNotes tells what a convert left out, read counting what its reading left out: the
// records of keys that came again, and those --drop-newer left out (see NewerNotes);
// dupLibraries counts the function libraries left out as duplicates (merge).
func ConvertNotes(stats convert.Stats, read decoder.Stats, dupLibraries uint64) string {
	var notes []string
	if n := read.Duplicates + stats.Duplicates; n > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d records of keys that came again (--on-duplicate)", n))
	}
	if n := stats.Filtered - stats.EmptiedHashes; n > 0 {
		notes = append(notes, fmt.Sprintf("filtered out %d of %d keys", n, stats.Read))
	}
	if stats.Unsupported > 0 {
		notes = append(notes, fmt.Sprintf("left out %d keys the target cannot hold", stats.Unsupported))
	}
	if stats.ExpiredFields > 0 {
		notes = append(notes, fmt.Sprintf("dropped %d hash fields that had expired (%d hashes had no other field and were dropped)", stats.ExpiredFields, stats.EmptiedHashes))
	}
	notes = append(notes, FunctionCounts{Functions: stats.Functions, FunctionsDropped: stats.FunctionsDropped, FunctionsDuplicate: dupLibraries}.Notes("with")...)
	if read.EnterpriseSkipped > 0 {
		notes = append(notes, EnterpriseNote(read.EnterpriseSkipped))
	}
	var text string
	if len(notes) > 0 {
		text = "; " + strings.Join(notes, "; ")
	}
	return text + NewerNotes(read.NewerDropped)
}

// StreamsNote says, for the summary, what the streams needed: those sent as RESTORE, what
// --drop-lost-pending left out, and that no command sets the seen and active times of the
// consumers commands made; "" when there is nothing to say.
func StreamsNote(s resp.StreamCounts) string {
	var notes []string
	if s.Restored > 0 {
		notes = append(notes, fmt.Sprintf("%d streams sent as RESTORE, since commands cannot make their pending entries whose entries were deleted or their consumers without pending entries", s.Restored))
	}
	if s.LostPending > 0 || s.LostConsumers > 0 {
		notes = append(notes, fmt.Sprintf("--drop-lost-pending left out %d pending entries whose entries were deleted and %d consumers without pending entries", s.LostPending, s.LostConsumers))
	}
	if s.Consumers > 0 {
		notes = append(notes, fmt.Sprintf("the %d stream consumers made by commands have the load's seen and active times: no command sets them", s.Consumers))
	}
	if len(notes) == 0 {
		return ""
	}
	return "streams: " + strings.Join(notes, "; ") + "\n"
}

// NewerNotes tells what --drop-newer dropped, for the one-line summary: "; " before it, or "".
func NewerNotes(dropped map[string]uint64) string {
	if len(dropped) == 0 {
		return ""
	}
	return "; dropped " + NewerList(dropped) + " (--drop-newer)"
}

// NewerList lists the counts of decoder.Stats.NewerDropped, "1 stream producer metadata,
// 2 array", by name.
func NewerList(counts map[string]uint64) string {
	var parts []string
	for _, what := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[what], what))
	}
	return strings.Join(parts, ", ")
}

// EnterpriseNote says that n Redis Enterprise per-key opcodes (RAM LRU, slot number) were
// skipped: they describe where Redis Enterprise kept a key, which no other server holds.
func EnterpriseNote(n uint64) string {
	return fmt.Sprintf("skipped %d Redis Enterprise per-key opcodes (RAM LRU, slot number: no other server holds them)", n)
}
