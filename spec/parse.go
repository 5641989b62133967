package spec

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/rdbgen/rdbgen/record"
)

// YAML comes from go.yaml.in/yaml/v3, the YAML organisation's maintained continuation of
// gopkg.in/yaml.v3: its Node API keeps the line and column of every key and value, which is
// what an error naming the file, line and field needs, and it resolves anchors and aliases.

// MaxFamilies bounds the families of one spec, since overlaps are checked pair by pair.
const MaxFamilies = 1000

// maxEnumerate is the most keys the overlap check lists to compare two families whose
// patterns alone do not prove them disjoint.
const maxEnumerate = 20_000_000

// parseFailure carries an *Error out of the recursive descent; Parse recovers it.
type parseFailure struct{ err *Error }

type parser struct {
	file    string
	rewrite bool // parsing a rewrite rule's generator (see ParseGenerator)
}

// fail stops parsing with an error at n.
func (p *parser) fail(n *yaml.Node, path, format string, args ...any) {
	e := &Error{File: p.file, Field: path, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	panic(parseFailure{e})
}

// Parse reads a spec file. name is the file's name for messages; src its text. The spec's
// Params get the file's seed (default 1) and no base time: set them with SetParams.
func Parse(name string, src []byte) (*Spec, error) {
	return ParseContext(context.Background(), name, src)
}

// ParseContext is Parse, stopped with ctx's error when ctx is cancelled during the check
// that the families' keys do not overlap, which may list millions of keys.
func ParseContext(ctx context.Context, name string, src []byte) (s *Spec, err error) {
	p := &parser{file: name}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(parseFailure)
			if !ok {
				panic(r)
			}
			s, err = nil, f.err
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, p.yamlError(err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		p.fail(nil, "", "the file is empty (a spec lists its key families under families:)")
	}
	s = &Spec{File: name, Source: src}
	seed := p.parseTop(s, resolve(doc.Content[0]))
	if err := s.SetParamsContext(ctx, Params{Seed: seed}); err != nil {
		return nil, err
	}
	return s, nil
}

var yamlLine = regexp.MustCompile(`line (\d+)(?:, column (\d+))?: `)

// yamlError turns a YAML syntax error into an *Error with its line.
func (p *parser) yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
	msg = strings.TrimSpace(strings.SplitN(msg, "\n", 2)[0])
	e := &Error{File: p.file, Msg: "YAML: " + msg}
	if m := yamlLine.FindStringSubmatchIndex(msg); m != nil {
		e.Line, _ = strconv.Atoi(msg[m[2]:m[3]])
		if m[4] >= 0 {
			e.Column, _ = strconv.Atoi(msg[m[4]:m[5]])
		}
		e.Msg = "YAML: " + msg[:m[0]] + msg[m[1]:]
	}
	return e
}

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for depth := 0; n != nil && n.Kind == yaml.AliasNode && depth < 100; depth++ {
		n = n.Alias
	}
	return n
}

// An entry is one key and value of a mapping.
type entry struct{ key, val *yaml.Node }

// fields reads a mapping whose keys must be among known, refusing unknown and repeated keys.
func (p *parser) fields(n *yaml.Node, path string, known ...string) map[string]entry {
	if n.Kind != yaml.MappingNode {
		p.fail(n, path, "want a mapping of %s, got %s", strings.Join(known, ", "), describe(n))
	}
	out := map[string]entry{}
	for k := 0; k+1 < len(n.Content); k += 2 {
		kn, vn := resolve(n.Content[k]), resolve(n.Content[k+1])
		if kn.Kind != yaml.ScalarNode {
			p.fail(kn, path, "a key must be a plain name, got %s", describe(kn))
		}
		name := kn.Value
		if prev, dup := out[name]; dup {
			p.fail(kn, join(path, name), "given twice (first at line %d)", prev.key.Line)
		}
		found := false
		for _, want := range known {
			found = found || want == name
		}
		if !found {
			p.fail(kn, join(path, name), "unknown field (known: %s)", strings.Join(known, ", "))
		}
		out[name] = entry{kn, vn}
	}
	return out
}

// join names the field name of path. A name that is not a plain word (it holds a dot, a
// bracket, a quote, a space or a control character, or is empty) is quoted in brackets,
// families[0].fields["a\nb"], so that a path is always one unambiguous line.
func join(path, name string) string {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool {
		return r <= ' ' || r == 0x7f || r == '.' || r == '[' || r == ']' || r == '"' || !unicode.IsPrint(r)
	}) {
		return path + "[" + strconv.Quote(name) + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// describe names the kind of a node for messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
}

func (p *parser) scalar(n *yaml.Node, path string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.fail(n, path, "want a value, got %s", describe(n))
	}
	return n.Value
}

func (p *parser) str(n *yaml.Node, path string) string {
	s := p.scalar(n, path)
	if s == "" {
		p.fail(n, path, "must not be empty")
	}
	return s
}

// integer reads a whole number, allowing "_" between digits (10_000_000).
func (p *parser) integer(n *yaml.Node, path string) int64 {
	s := strings.ReplaceAll(p.scalar(n, path), "_", "")
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		p.fail(n, path, "want a whole number, got %q", n.Value)
	}
	return v
}

func (p *parser) uint(n *yaml.Node, path string) uint64 {
	s := strings.ReplaceAll(p.scalar(n, path), "_", "")
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		p.fail(n, path, "want a whole number of at least 0, got %q", n.Value)
	}
	return v
}

func (p *parser) float(n *yaml.Node, path string) float64 {
	v, err := strconv.ParseFloat(strings.ReplaceAll(p.scalar(n, path), "_", ""), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		p.fail(n, path, "want a finite number, got %q", n.Value)
	}
	return v
}

func (p *parser) duration(n *yaml.Node, path string) time.Duration {
	d, err := time.ParseDuration(p.scalar(n, path))
	if err != nil {
		p.fail(n, path, "want a duration such as 30s, 15m or 1h30m, got %q", n.Value)
	}
	return d
}

// parseTop reads the top-level mapping and returns the seed.
func (p *parser) parseTop(s *Spec, n *yaml.Node) uint64 {
	top := p.fields(n, "", "seed", "families")
	seed := uint64(1)
	if e, ok := top["seed"]; ok {
		seed = p.uint(e.val, "seed")
	}
	fe, ok := top["families"]
	if !ok {
		p.fail(n, "families", "missing: a spec lists its key families under families:")
	}
	if fe.val.Kind != yaml.SequenceNode || len(fe.val.Content) == 0 {
		p.fail(fe.val, "families", "want a list of at least one family, got %s", describe(fe.val))
	}
	if len(fe.val.Content) > MaxFamilies {
		p.fail(fe.val, "families", "%d families (at most %d)", len(fe.val.Content), MaxFamilies)
	}
	names := map[string]*Family{}
	for k, fn := range fe.val.Content {
		f := p.family(resolve(fn), fmt.Sprintf("families[%d]", k))
		if prev, dup := names[f.Name]; dup {
			p.fail(fn, f.path+".name", "family name %q used twice (first at line %d); names must be unique", f.Name, prev.Line)
		}
		names[f.Name] = f
		s.Families = append(s.Families, f)
	}
	// Collections that hold another family's ids.
	for _, f := range s.Families {
		if m := f.members; m != nil && m.ofName != "" {
			m.of = names[m.ofName]
			if m.of == nil {
				p.fail(nil, f.path+".members.of_family", "no family is named %q (line %d)", m.ofName, f.Line)
			}
			if m.of.key.slot == slotNone {
				p.fail(nil, f.path+".members.of_family", "family %q has a single fixed key and no ids to hold", m.ofName)
			}
			if m.of.Count == 0 {
				p.fail(nil, f.path+".members.of_family", "family %q has count 0: no ids to hold, and Redis drops empty collections", m.ofName)
			}
		}
	}
	return seed
}

// family reads one family.
func (p *parser) family(n *yaml.Node, path string) *Family {
	m := p.fields(n, path, "name", "key", "type", "db", "count", "id_start", "ttl", "ttl_jitter", "value", "fields", "members", "entries", "field_ttl", "groups")
	f := &Family{Line: n.Line, path: path, IDStart: 1, Type: record.String}
	ke, ok := m["key"]
	if !ok {
		p.fail(n, path+".key", "missing: each family needs a key pattern such as \"user:{id}\"")
	}
	var err error
	if f.key, err = parseKeyPattern(p.scalar(ke.val, path+".key")); err != nil {
		p.fail(ke.val, path+".key", "%v", err)
	}
	f.Name = f.key.text
	f.keyLine, f.keyCol = ke.val.Line, ke.val.Column
	if e, ok := m["name"]; ok {
		f.Name = p.str(e.val, path+".name")
	}
	if e, ok := m["type"]; ok {
		f.Type = record.Type(p.str(e.val, path+".type"))
		if !f.Type.Valid() || f.Type == record.Module { // module values are carried from dumps, not made
			p.fail(e.val, path+".type", "unknown type %q (known: string, hash, list, set, zset, stream)", f.Type)
		}
	}
	if e, ok := m["db"]; ok {
		db := p.integer(e.val, path+".db")
		if db < 0 || db > record.MaxDB {
			p.fail(e.val, path+".db", "db %d out of range (0 to %d)", db, record.MaxDB)
		}
		f.DB = int(db)
	}
	f.Count = 1
	if e, ok := m["count"]; ok {
		f.Count = p.uint(e.val, path+".count")
	} else if f.key.slot != slotNone {
		p.fail(n, path+".count", "missing: how many keys %q makes", f.key.text)
	}
	if f.key.slot == slotNone && f.Count != 1 {
		p.fail(m["count"].val, path+".count", "%d keys need an {id} or {uuid} in the key to tell them apart", f.Count)
	}
	if f.key.slot == slotUUID && f.Count > mask62 {
		p.fail(m["count"].val, path+".count", "at most %d keys with {uuid}", uint64(mask62))
	}
	if e, ok := m["id_start"]; ok {
		if f.key.slot != slotID {
			p.fail(e.key, path+".id_start", "goes with an {id} in the key")
		}
		f.IDStart = p.uint(e.val, path+".id_start")
	}
	if f.key.slot == slotID && f.Count > 0 && f.IDStart > math.MaxUint64-(f.Count-1) {
		p.fail(m["count"].val, path+".count", "id_start %d plus count %d overflows", f.IDStart, f.Count)
	}
	if e, ok := m["ttl"]; ok {
		if f.TTL = p.duration(e.val, path+".ttl"); f.TTL <= 0 {
			p.fail(e.val, path+".ttl", "must be positive (leave it out for keys without expiry)")
		}
	}
	if e, ok := m["ttl_jitter"]; ok {
		f.TTLJitter = p.duration(e.val, path+".ttl_jitter")
		switch {
		case f.TTL == 0:
			p.fail(e.key, path+".ttl_jitter", "needs a ttl")
		case f.TTLJitter < 0 || f.TTLJitter >= f.TTL:
			p.fail(e.val, path+".ttl_jitter", "%s must be at least 0 and less than the ttl %s", f.TTLJitter, f.TTL)
		}
	}
	p.contents(f, n, m)
	return f
}

// contents reads value, fields or members, as the type wants.
func (p *parser) contents(f *Family, n *yaml.Node, m map[string]entry) {
	path := f.path
	value, hasValue := m["value"]
	fields, hasFields := m["fields"]
	mem, hasMembers := m["members"]
	if entries, ok := m["entries"]; ok && f.Type != record.Stream {
		p.fail(entries.key, path+".entries", "goes with a stream")
	}
	if e, ok := m["groups"]; ok && f.Type != record.Stream {
		p.fail(e.key, path+".groups", "goes with a stream")
	}
	if e, ok := m["field_ttl"]; ok && (f.Type != record.Hash || !hasFields) {
		p.fail(e.key, path+".field_ttl", "goes with a hash's fields:")
	}
	if f.Type == record.Stream {
		p.streamContents(f, n, m)
		return
	}
	if f.Type == record.String {
		for _, e := range []struct {
			has  bool
			name string
			en   entry
		}{{hasFields, "fields", fields}, {hasMembers, "members", mem}} {
			if e.has {
				p.fail(e.en.key, join(path, e.name), "goes with a hash, list, set or zset; a string takes value:")
			}
		}
		if !hasValue {
			p.fail(n, path+".value", "missing: the generator of the string values, e.g. value: {key: {}}")
		}
		f.value = p.generator(value.val, path+".value", f)
		return
	}
	if hasValue {
		p.fail(value.key, path+".value", "goes with a string; a %s takes %s", f.Type, map[bool]string{true: "fields: or members:", false: "members:"}[f.Type == record.Hash])
	}
	if hasFields {
		if f.Type != record.Hash {
			p.fail(fields.key, path+".fields", "goes with a hash; a %s takes members:", f.Type)
		}
		if hasMembers {
			p.fail(mem.key, path+".members", "a hash takes fields: (fixed names) or members: (generated), not both")
		}
		p.namedFields(f, fields.val, path+".fields")
		if e, ok := m["field_ttl"]; ok {
			p.fieldTTLs(f, e.val, path+".field_ttl")
		}
		return
	}
	if !hasMembers {
		want := "members:"
		if f.Type == record.Hash {
			want = "fields: or members:"
		}
		p.fail(n, path+".members", "missing: a %s takes %s", f.Type, want)
	}
	p.members(f, mem.val, path+".members")
}

// namedFields reads the fixed fields of a hash.
func (p *parser) namedFields(f *Family, n *yaml.Node, path string) {
	switch {
	case n.Kind == yaml.MappingNode && len(n.Content) == 0:
		p.fail(n, path, "no fields: a hash needs at least one (Redis drops empty collections)")
	case n.Kind != yaml.MappingNode:
		p.fail(n, path, "want a mapping of field names to generators, got %s", describe(n))
	}
	seen := map[string]int{}
	for k := 0; k+1 < len(n.Content); k += 2 {
		kn := resolve(n.Content[k])
		name := p.scalar(kn, path)
		if line, dup := seen[name]; dup {
			p.fail(kn, join(path, name), "field given twice (first at line %d)", line)
		}
		seen[name] = kn.Line
		f.fields = append(f.fields, field{name: []byte(name), gen: p.generator(resolve(n.Content[k+1]), join(path, name), f)})
	}
}

// members reads the generated members of a collection.
func (p *parser) members(f *Family, n *yaml.Node, path string) {
	m := p.fields(n, path, "count", "of_family", "value", "field", "score")
	ms := &members{}
	f.members = ms
	count, hasCount := m["count"]
	of, hasOf := m["of_family"]
	switch {
	case hasCount && hasOf:
		p.fail(of.key, path+".of_family", "a collection takes count: or of_family:, not both")
	case hasOf:
		ms.ofName = p.str(of.val, path+".of_family")
	case hasCount:
		ms.min, ms.max = p.countRange(count.val, path+".count")
	default:
		p.fail(n, path+".count", "missing: how many members each key holds (N or MIN-MAX), or of_family: NAME")
	}
	// The generators a type takes, and which of them names the members.
	wants := map[record.Type][]string{
		record.Hash: {"field", "value"},
		record.List: {"value"},
		record.Set:  {"value"},
		record.ZSet: {"value", "score"},
	}[f.Type]
	naming := "value"
	if f.Type == record.Hash {
		naming = "field"
	}
	for _, name := range []string{"value", "field", "score"} {
		e, given := m[name]
		wanted := false
		for _, w := range wants {
			wanted = wanted || w == name
		}
		switch {
		case given && !wanted:
			p.fail(e.key, join(path, name), "does not go with a %s (it takes %s)", f.Type, strings.Join(wants, ", "))
		case given && hasOf && name == naming:
			p.fail(e.key, join(path, name), "of_family gives the %s names: leave %s out", f.Type, name)
		case !given && wanted && name != "score" && !(hasOf && name == naming):
			p.fail(n, join(path, name), "missing: the generator of the %s's %ss", f.Type, map[string]string{"value": "value", "field": "field name"}[name])
		case !given:
			continue
		}
		g := p.generator(e.val, join(path, name), f)
		switch name {
		case "value":
			ms.value = g
		case "field":
			ms.field = g
		case "score":
			if !g.numeric() {
				p.fail(e.val, join(path, name), "a score must be a number: use sequence, int, float, a unix timestamp or a number")
			}
			if c, ok := g.(*constGen); ok {
				g = p.constScore(c, e.val, join(path, name))
			}
			ms.score = g
		}
	}
	// Members that must be distinct: a literal cannot make more than one, a choice no more
	// than its values. Other generators are checked as they draw (see emit.go).
	if f.Type != record.List && !hasOf {
		g, name := ms.value, "value"
		if f.Type == record.Hash {
			g, name = ms.field, "field"
		}
		distinct := uint64(math.MaxUint64)
		switch g := g.(type) {
		case *constGen:
			distinct = 1
		case *choiceGen:
			distinct = uint64(len(g.values))
		}
		if ms.min > distinct {
			p.fail(m[name].val, join(path, name), "makes at most %d distinct %s names, but each %s needs %d", distinct, f.Type, f.Type, ms.min)
		}
	}
}

// countRange reads N, "MIN-MAX" or {min: , max: }.
func (p *parser) countRange(n *yaml.Node, path string) (lo, hi uint64) {
	if n.Kind == yaml.MappingNode {
		m := p.fields(n, path, "min", "max")
		for _, k := range []string{"min", "max"} {
			if _, ok := m[k]; !ok {
				p.fail(n, join(path, k), "missing")
			}
		}
		lo, hi = p.uint(m["min"].val, path+".min"), p.uint(m["max"].val, path+".max")
	} else {
		s := p.scalar(n, path)
		a, b, isRange := strings.Cut(s, "-")
		var err1, err2 error
		lo, err1 = strconv.ParseUint(strings.TrimSpace(a), 10, 64)
		hi = lo
		if isRange {
			hi, err2 = strconv.ParseUint(strings.TrimSpace(b), 10, 64)
		}
		if err1 != nil || err2 != nil {
			p.fail(n, path, "want N or MIN-MAX with whole numbers, got %q", s)
		}
	}
	switch {
	case lo == 0:
		p.fail(n, path, "at least 1 member (Redis drops empty collections)")
	case lo > hi:
		p.fail(n, path, "the minimum %d is above the maximum %d", lo, hi)
	case hi > 1<<32:
		p.fail(n, path, "at most %d members", uint64(1<<32))
	}
	return lo, hi
}

// errNotGenerator is the hint for a node that is neither a literal nor a generator.
var errNotGenerator = errors.New("a generator is a literal or a mapping with one key naming its kind: " + strings.Join(generatorKinds, ", "))
