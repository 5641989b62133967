package rewrite

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rdbgen/rdbgen/spec"
)

// parser reads the structure of a rules file; spec reads its generators. Its errors are the
// spec's: one line naming the file, line, column and field.
type parser struct{ file string }

func (p *parser) errorf(n *yaml.Node, path, format string, args ...any) error {
	e := &spec.Error{File: p.file, Field: path, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	return e
}

// An entry is one key and value of a mapping.
type entry struct{ key, val *yaml.Node }

// mapping reads a mapping whose keys must be among known, refusing unknown and repeated keys.
func (p *parser) mapping(n *yaml.Node, path string, known ...string) (map[string]entry, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, path, "want a mapping of %s, got %s", strings.Join(known, ", "), describe(n))
	}
	out := map[string]entry{}
	for k := 0; k+1 < len(n.Content); k += 2 {
		kn, vn := resolve(n.Content[k]), resolve(n.Content[k+1])
		if kn.Kind != yaml.ScalarNode {
			return nil, p.errorf(kn, path, "a key must be a plain name, got %s", describe(kn))
		}
		name := kn.Value
		if prev, dup := out[name]; dup {
			return nil, p.errorf(kn, join(path, name), "given twice (first at line %d)", prev.key.Line)
		}
		found := false
		for _, want := range known {
			found = found || want == name
		}
		if !found {
			return nil, p.errorf(kn, join(path, name), "unknown field (known: %s)", strings.Join(known, ", "))
		}
		out[name] = entry{kn, vn}
	}
	return out, nil
}

// str reads a non-empty scalar.
func (p *parser) str(n *yaml.Node, path string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" || n.Value == "" {
		return "", p.errorf(n, path, "want a non-empty text, got %s", describe(n))
	}
	return n.Value, nil
}

// boolean reads true or false.
func (p *parser) boolean(n *yaml.Node, path string) (bool, error) {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
		return false, p.errorf(n, path, "want true or false, got %s", describe(n))
	}
	return b, nil
}

// maxNodes bounds the nodes of a rules file, counting each alias as the nodes it stands for:
// aliases of aliases would otherwise make a short file as big as memory.
const maxNodes = 100_000

// checkSize refuses a document whose aliases expand past maxNodes.
func (p *parser) checkSize(top *yaml.Node) error {
	budget := maxNodes
	var walk func(n *yaml.Node) bool
	walk = func(n *yaml.Node) bool {
		if n = resolve(n); n == nil {
			return true
		}
		if budget--; budget < 0 {
			return false
		}
		for _, c := range n.Content {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	if !walk(top) {
		return p.errorf(top, "", "more than %d values once aliases are expanded", maxNodes)
	}
	return nil
}

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for depth := 0; n != nil && n.Kind == yaml.AliasNode && depth < 100; depth++ {
		n = n.Alias
	}
	return n
}

func join(path, name string) string {
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
