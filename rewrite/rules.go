// Package rewrite anonymises records on their way from a source to a sink: a Sink wraps the
// next record.Sink and passes every record on with the values its rules name replaced by
// values of spec generators (fake e-mail addresses, names, UUIDs, random strings).
//
// A rules file (RULES.yaml) maps key patterns, Redis globs, to what to replace in a matching
// key: its string value, its list, set or sorted-set members, the values of hash fields (by
// field-name glob), the names of its hash fields, or the part of the key itself that the
// pattern's "*" matches. Values and members that hold key names can be renamed as those keys
// are. A replacement depends on the seed and on the value it replaces
// only, so the same input gives the same output everywhere: a set of ids still names the
// keys renamed with the same generator. Nothing else changes: types, counts, scores, expiries.
package rewrite

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// MaxRules bounds the rules of one file: each key is matched against them in turn.
const MaxRules = 1000

// DefaultSeed is the seed of a rules file that gives none.
const DefaultSeed = 1

// Rules are a parsed rules file. Build a Sink with New to apply them.
type Rules struct {
	// File is the name given to Parse.
	File string
	// Seed keys the hash that turns each input into its output; Parse sets the file's seed,
	// DefaultSeed when it has none. Change it (from a --seed flag) before New.
	Seed uint64
	// Rules are the file's rules in file order: a key takes the first one it matches.
	Rules []*Rule

	sum [sha256.Size]byte // of the file's text
}

// Renames reports whether a rule renames keys.
func (rs *Rules) Renames() bool {
	for _, r := range rs.Rules {
		if r.rename != nil {
			return true
		}
	}
	return false
}

// A Rule says what to rewrite in the keys that match a pattern.
type Rule struct {
	// Key is the pattern, a Redis glob.
	Key string
	// Type restricts the rule to keys of one type; empty matches every type.
	Type record.Type
	// Module, with Type record.Module ("type: module:NAME"), restricts the rule to the
	// module values of one module type; empty matches every module type.
	Module string
	// Line is where the rule starts in the file.
	Line int

	key        glob
	rename     *gen // the part of the key that the pattern's * matches
	value      *gen // string values
	members    *gen // list elements, set and sorted-set members
	fieldNames *gen // hash field names
	fields     []fieldRule
	// The members, or the string value, are key names: renamed as those keys are.
	membersAreKeys, valueIsKey bool
}

// A fieldRule rewrites the values of the hash fields (or stream entry fields) whose names
// match a glob.
type fieldRule struct {
	name glob
	gen  *gen
}

// gen is a parsed generator with its text, for Describe.
type gen struct {
	g    *spec.Generator
	desc any // the generator as written, decoded from YAML
}

// Parse reads a rules file. name is the file's name for messages; src its text. A problem is
// an *spec.Error naming the file, line, column and field, as a spec file's are.
func Parse(name string, src []byte) (*Rules, error) {
	rs, err := parse(name, src)
	var se *spec.Error
	if errors.As(err, &se) {
		// A field named with a line break would break the one-line message.
		se.Field = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return '?'
			}
			return r
		}, se.Field)
	}
	return rs, err
}

// ReadFile reads the rules file at path and parses it (see Parse).
func ReadFile(path string) (*Rules, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read rewrite rules: %w", err)
	}
	return Parse(path, src)
}

func parse(name string, src []byte) (*Rules, error) {
	top, err := spec.ParseYAML(name, src)
	if err != nil {
		return nil, err
	}
	p := &parser{file: name}
	if top == nil {
		return nil, p.errorf(nil, "", "the file is empty (a rules file lists its rules under rules:)")
	}
	if err := p.checkSize(top); err != nil {
		return nil, err
	}
	rs := &Rules{File: name, Seed: DefaultSeed, sum: sha256.Sum256(src)}
	m, err := p.mapping(top, "", "seed", "rules")
	if err != nil {
		return nil, err
	}
	if e, ok := m["seed"]; ok {
		if rs.Seed, err = strconv.ParseUint(strings.ReplaceAll(e.val.Value, "_", ""), 10, 64); err != nil || e.val.Kind != yaml.ScalarNode {
			return nil, p.errorf(e.val, "seed", "want a whole number of at least 0, got %s", describe(e.val))
		}
	}
	e, ok := m["rules"]
	if !ok {
		return nil, p.errorf(top, "rules", "missing: a rules file lists its rules under rules:")
	}
	if e.val.Kind != yaml.SequenceNode || len(e.val.Content) == 0 {
		return nil, p.errorf(e.val, "rules", "want a list of at least one rule, got %s", describe(e.val))
	}
	if len(e.val.Content) > MaxRules {
		return nil, p.errorf(e.val, "rules", "%d rules (at most %d)", len(e.val.Content), MaxRules)
	}
	for k, n := range e.val.Content {
		r, err := p.rule(resolve(n), fmt.Sprintf("rules[%d]", k))
		if err != nil {
			return nil, err
		}
		rs.Rules = append(rs.Rules, r)
	}
	return rs, nil
}

// What each part of a rule applies to, for messages.
var appliesTo = map[string][]record.Type{
	"value":       {record.String},
	"members":     {record.List, record.Set, record.ZSet},
	"field_names": {record.Hash},
	"fields":      {record.Hash, record.Stream},
	// Key names in values: rewritten as the keys they name are.
	"value_is_key":     {record.String},
	"members_are_keys": {record.List, record.Set, record.ZSet},
}

// rule reads one rule.
func (p *parser) rule(n *yaml.Node, path string) (*Rule, error) {
	m, err := p.mapping(n, path, "key", "type", "rename", "value", "members", "field_names", "fields", "value_is_key", "members_are_keys")
	if err != nil {
		return nil, err
	}
	r := &Rule{Line: n.Line}
	ke, ok := m["key"]
	if !ok {
		return nil, p.errorf(n, path+".key", "missing: each rule needs a key pattern such as \"user:*\"")
	}
	if r.Key, err = p.str(ke.val, path+".key"); err != nil {
		return nil, err
	}
	r.key = parseGlob(r.Key)
	if e, ok := m["type"]; ok {
		t, err := p.str(e.val, path+".type")
		if err != nil {
			return nil, err
		}
		if r.Type, r.Module, err = record.ParseTypeFilter(t); errors.Is(err, record.ErrBadType) {
			return nil, p.errorf(e.val, path+".type", "unknown type %q (known: string, hash, list, set, zset, stream, module, module:NAME)", t)
		} else if err != nil {
			return nil, p.errorf(e.val, path+".type", "%v", err)
		}
	}
	for _, part := range []struct {
		name string
		dst  **gen
	}{{"rename", &r.rename}, {"value", &r.value}, {"members", &r.members}, {"field_names", &r.fieldNames}} {
		e, ok := m[part.name]
		if !ok {
			continue
		}
		if err := p.checkApplies(r, e, path, part.name); err != nil {
			return nil, err
		}
		if *part.dst, err = p.generator(e.val, join(path, part.name)); err != nil {
			return nil, err
		}
	}
	if e, ok := m["rename"]; ok && !r.key.oneStar {
		return nil, p.errorf(e.key, path+".rename", "%v, got %q", errNotOneStar, r.Key)
	}
	if e, ok := m["fields"]; ok {
		if err := p.checkApplies(r, e, path, "fields"); err != nil {
			return nil, err
		}
		if r.fields, err = p.fieldRules(e.val, path+".fields"); err != nil {
			return nil, err
		}
	}
	for _, part := range []struct {
		name, other string
		dst         *bool
	}{{"value_is_key", "value", &r.valueIsKey}, {"members_are_keys", "members", &r.membersAreKeys}} {
		e, ok := m[part.name]
		if !ok {
			continue
		}
		if err := p.checkApplies(r, e, path, part.name); err != nil {
			return nil, err
		}
		if *part.dst, err = p.boolean(e.val, join(path, part.name)); err != nil {
			return nil, err
		}
		if _, both := m[part.other]; both && *part.dst {
			return nil, p.errorf(e.key, join(path, part.name), "goes without %s: a %s is either rewritten by a generator or renamed as the key it names", part.other, strings.TrimSuffix(part.other, "s"))
		}
	}
	if r.rename == nil && r.value == nil && r.members == nil && r.fieldNames == nil && r.fields == nil && !r.valueIsKey && !r.membersAreKeys {
		return nil, p.errorf(n, path, "rewrites nothing: give rename, value, members, field_names, fields, value_is_key or members_are_keys")
	}
	return r, nil
}

// typeName is the rule's type as the file names it.
func (r *Rule) typeName() string {
	if r.Module != "" {
		return string(r.Type) + ":" + r.Module
	}
	return string(r.Type)
}

// checkApplies refuses a part of a rule that its type cannot have.
func (p *parser) checkApplies(r *Rule, e entry, path, name string) error {
	types := appliesTo[name]
	if r.Type == "" || name == "rename" {
		return nil
	}
	for _, t := range types {
		if r.Type == t {
			return nil
		}
	}
	names := make([]string, len(types))
	for k, t := range types {
		names[k] = string(t)
	}
	return p.errorf(e.key, join(path, name), "applies to %s keys, not to type %s", strings.Join(names, ", "), r.Type)
}

// fieldRules reads the mapping of field-name globs to generators, in file order.
func (p *parser) fieldRules(n *yaml.Node, path string) ([]fieldRule, error) {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return nil, p.errorf(n, path, "want a mapping of field-name patterns to generators, got %s", describe(n))
	}
	var out []fieldRule
	seen := map[string]int{}
	for k := 0; k+1 < len(n.Content); k += 2 {
		kn, vn := resolve(n.Content[k]), resolve(n.Content[k+1])
		name, err := p.str(kn, path)
		if err != nil {
			return nil, err
		}
		if line, dup := seen[name]; dup {
			return nil, p.errorf(kn, join(path, name), "given twice (first at line %d)", line)
		}
		seen[name] = kn.Line
		g, err := p.generator(vn, join(path, name))
		if err != nil {
			return nil, err
		}
		out = append(out, fieldRule{name: parseGlob(name), gen: g})
	}
	return out, nil
}

// generator reads a spec generator and keeps its text.
func (p *parser) generator(n *yaml.Node, path string) (*gen, error) {
	g, err := spec.ParseGenerator(p.file, n, path)
	if err != nil {
		return nil, err
	}
	var desc any
	if err := n.Decode(&desc); err != nil {
		return nil, p.errorf(n, path, "%v", err)
	}
	return &gen{g: g, desc: desc}, nil
}

// Describe returns the rules in a form for the manifest (encoding/json renders it).
func (rs *Rules) Describe() Description {
	d := Description{File: rs.File, Seed: rs.Seed, SHA256: hex.EncodeToString(rs.sum[:])}
	for _, r := range rs.Rules {
		rd := RuleDescription{Key: r.Key, Type: r.typeName(), Rename: r.rename.describe(), Value: r.value.describe(), Members: r.members.describe(), FieldNames: r.fieldNames.describe(), ValueIsKey: r.valueIsKey, MembersAreKeys: r.membersAreKeys}
		for _, f := range r.fields {
			rd.Fields = append(rd.Fields, FieldDescription{Field: f.name.text, Generator: f.gen.describe()})
		}
		d.Rules = append(d.Rules, rd)
	}
	return d
}

func (g *gen) describe() any {
	if g == nil {
		return nil
	}
	return g.desc
}

// A Description is a rules file as the manifest records it. Generators are as written in the
// file: a literal, or a one-key object such as {"fake": "email"}.
type Description struct {
	File   string            `json:"file"`
	Seed   uint64            `json:"seed"`
	SHA256 string            `json:"sha256"` // of the file's text
	Rules  []RuleDescription `json:"rules"`
}

// A RuleDescription is one rule of a Description; parts the rule leaves out are omitted.
type RuleDescription struct {
	Key        string             `json:"key"`
	Type       string             `json:"type,omitempty"`
	Rename     any                `json:"rename,omitempty"`
	Value      any                `json:"value,omitempty"`
	Members    any                `json:"members,omitempty"`
	FieldNames any                `json:"field_names,omitempty"`
	Fields     []FieldDescription `json:"fields,omitempty"`
	// The string value, or the members, name keys and are renamed as those keys are.
	ValueIsKey     bool `json:"value_is_key,omitempty"`
	MembersAreKeys bool `json:"members_are_keys,omitempty"`
}

// A FieldDescription is one field-name pattern of a rule and its generator.
type FieldDescription struct {
	Field     string `json:"field"`
	Generator any    `json:"generator"`
}
