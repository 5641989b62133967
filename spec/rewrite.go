package spec

import (
	"github.com/brianvoe/gofakeit/v7"
	"go.yaml.in/yaml/v3"
)

// Rewriting replaces existing values (a dump's e-mail addresses, names, tokens) with values
// of a spec generator. A rewritten value must depend on the value it replaces only, so that
// one input gives one output everywhere: the caller hashes the input into a 64-bit state and
// the generator draws from that state. Generators that depend on a record's place in a
// family (id, key, sequence) or on the time of generation (relative timestamps) mean nothing
// there and are refused.

// A Generator is one spec generator parsed on its own, for rewriting values. It is not safe
// for concurrent use.
type Generator struct {
	g     generator
	rnd   source
	faker *gofakeit.Faker
	ctx   evalCtx
}

// ParseYAML reads a YAML document, such as a rewrite rules file, and returns its top node
// (nil for an empty document). A syntax error is an *Error naming the file and line.
func ParseYAML(name string, src []byte) (*yaml.Node, error) {
	p := &parser{file: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, p.yamlError(err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	return resolve(doc.Content[0]), nil
}

// ParseGenerator reads the generator at n, a literal or a one-key mapping as in a spec
// file's fields (`{fake: email}`, `{string: 32}`, `{concat: [...]}`), for rewriting. file and
// path name the file and the field in errors, which are *Error values with n's line and
// column. id, key, sequence and timestamps relative to the generation time are refused.
func ParseGenerator(file string, n *yaml.Node, path string) (g *Generator, err error) {
	p := &parser{file: file, rewrite: true}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(parseFailure)
			if !ok {
				panic(r)
			}
			g, err = nil, f.err
		}
	}()
	f := &Family{path: path}
	gen := p.generator(resolve(n), path, f)
	if f.relativeTime {
		p.fail(n, path, "a rewritten value depends on the value it replaces only: give timestamps absolute from and to times (2024-01-02T15:04:05Z)")
	}
	g = &Generator{g: gen}
	g.faker = gofakeit.NewFaker(&g.rnd, false)
	g.ctx = evalCtx{f: f, rnd: &g.rnd, faker: g.faker}
	return g, nil
}

// checkRewritable refuses, in a rewrite rule, the generators that depend on a record's place.
func (p *parser) checkRewritable(kind string, n *yaml.Node, path string) {
	if !p.rewrite {
		return
	}
	switch kind {
	case "id", "key", "sequence":
		p.fail(n, path, "%s is not available in rewrite rules: a rewritten value depends on the value it replaces only", kind)
	}
}

// Append appends to dst the value drawn from state, a 64-bit hash of the input the value
// replaces: the same state always gives the same value.
func (g *Generator) Append(dst []byte, state uint64) []byte {
	g.rnd.state = state
	return g.g.appendTo(dst, &g.ctx)
}

// Numeric reports whether every value is a number.
func (g *Generator) Numeric() bool { return g.g.numeric() }
