package inspect

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rdbgen/rdbgen/internal/human"
	"github.com/rdbgen/rdbgen/internal/summary"
)

// WriteText writes r for people, as rdbgen inspect prints it.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "RDB %d, %s, %d keys (%d with TTL), %d members\n", r.RDBVersion, human.Bytes(r.Bytes), r.Keys, r.Expires, r.Members)
	for _, k := range slices.Sorted(maps.Keys(r.Aux)) {
		// Quoted as keys are: a value may hold newlines or terminal escapes.
		fmt.Fprintf(&b, "  aux %s = %q\n", auxName(k), r.Aux[k])
	}
	if r.Functions > 0 {
		fmt.Fprintf(&b, "  %d function libraries\n", r.Functions)
	}
	if len(r.Modules) > 0 {
		fmt.Fprintf(&b, "  module keys per module type (a server loads them only with their module): %s\n", moduleList(r.Modules))
	}
	if len(r.ModuleAux) > 0 {
		fmt.Fprintf(&b, "  module AUX data: %s\n", moduleList(r.ModuleAux))
	}
	if len(r.Newer) > 0 {
		fmt.Fprintf(&b, "  data of Redis 8.6+ that no earlier format holds: %s (a conversion needs --drop-newer, which leaves it out)\n", summary.NewerList(r.Newer))
	}
	if r.EnterpriseSkipped > 0 {
		fmt.Fprintf(&b, "  %s\n", summary.EnterpriseNote(r.EnterpriseSkipped))
	}
	bound := ""
	if r.Memory.LowerBound {
		bound = "at least " // module values count at their serialized size
	}
	server := r.Memory.Target
	if r.Memory.Allocator != "" {
		server += " (" + r.Memory.Allocator + " malloc)"
	}
	fmt.Fprintf(&b, "used_memory on %s once loaded: %s%s (%d bytes above an empty server", server, bound, human.Bytes(r.Memory.Bytes), r.Memory.Bytes)
	if r.Memory.LowerBound {
		b.WriteString("; a lower bound: module values count at their serialized size")
	}
	b.WriteString(")\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "db\tkeys\texpires\tfile bytes\t")
	for _, d := range r.DBs {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t\n", d.DB, d.Keys, d.Expires, d.Bytes)
	}
	fmt.Fprintln(tw, "type\tkeys\tmembers\tfile bytes\t")
	for _, t := range r.Types {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", t.Type, t.Keys, t.Members, t.Bytes)
	}
	fmt.Fprintln(tw, "file encoding\tkeys\t\t\t")
	for _, e := range r.Encodings {
		fmt.Fprintf(tw, "%s\t%d\t\t\t\n", e.Encoding, e.Keys)
	}
	fmt.Fprintln(tw, "server encoding\tkeys\tused_memory\t\t")
	for _, e := range r.Memory.Encodings {
		fmt.Fprintf(tw, "%s %s\t%d\t%d\t\t\n", e.Type, e.Encoding, e.Keys, e.Bytes)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	x := r.Expiry
	if x.Keys > 0 {
		fmt.Fprintf(&b, "expiries: %d keys, %d already expired at %s; earliest %s, last %s\n  ", x.Keys, x.Expired,
			human.MSTime(x.NowMS), human.MSTime(x.EarliestMS), human.MSTime(x.LatestMS))
		for i, h := range x.Histogram {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %d", h.Within, h.Keys)
		}
		b.WriteString("\n")
	}
	for _, l := range []struct {
		what string
		keys []Key
	}{{"largest by size in the file", r.Largest.BySize}, {"largest by members", r.Largest.ByMembers}} {
		if len(l.keys) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n", l.what)
		for _, k := range l.keys {
			fmt.Fprintf(&b, "  db %d %q %s (%s): %d bytes, %d members\n", k.DB, k.Key, k.Type, k.Encoding, k.Bytes, k.Members)
		}
	}
	if len(r.Prefixes) > 0 {
		b.WriteString("by key prefix (largest estimated memory first):\n")
		for _, p := range r.Prefixes {
			name := strconv.Quote(p.Prefix)
			if p.Other {
				name = "(other)"
			}
			fmt.Fprintf(&b, "  %s: %d keys, %s in the file, %s estimated memory", name, p.Keys, human.Bytes(p.Bytes), human.Bytes(p.Memory))
			if p.MemoryError > 0 {
				fmt.Fprintf(&b, " (at most %s of it other prefixes')", human.Bytes(p.MemoryError))
			}
			b.WriteString("\n")
		}
		if r.PrefixBound > 0 {
			fmt.Fprintf(&b, "  (approximate: a prefix not listed may hold up to %s of estimated memory)\n", human.Bytes(r.PrefixBound))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// auxName returns an AUX field's name as it is when it is plain (printable ASCII, no space
// or quote), else quoted.
func auxName(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' || s[i] == '"' || s[i] == '\\' {
			return strconv.Quote(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}

// moduleList renders counts per module as "2 MBbloom--, 1 ReJSON-RL".
func moduleList(ms []ModuleCount) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%d %s", m.Count, m.Module)
	}
	return strings.Join(parts, ", ")
}
