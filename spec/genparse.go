package spec

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// generatorKinds are the keys that name a generator.
var generatorKinds = []string{"const", "id", "key", "sequence", "int", "float", "string", "choice", "uuid", "timestamp", "fake", "concat", "json"}

// Default alphabet of string: letters and digits.
const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// Limits on generators.
const (
	maxStringLen = 1 << 20
	maxChoices   = 1 << 16
	maxDecimals  = 17
)

// generator reads a literal or a one-key mapping naming a generator.
func (p *parser) generator(n *yaml.Node, path string, f *Family) generator {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			p.fail(n, path, "no value: %v", errNotGenerator)
		}
		return &constGen{text: []byte(n.Value), num: isNumberTag(n)}
	case yaml.MappingNode:
		if len(n.Content) == 2 {
			kn := resolve(n.Content[0])
			if kn.Kind == yaml.ScalarNode && slices.Contains(generatorKinds, kn.Value) {
				return p.generatorOf(kn.Value, resolve(n.Content[1]), join(path, kn.Value), f)
			}
			if kn.Kind == yaml.ScalarNode {
				p.fail(kn, join(path, kn.Value), "unknown generator (known: %s)", strings.Join(generatorKinds, ", "))
			}
		}
	}
	p.fail(n, path, "got %s: %v", describe(n), errNotGenerator)
	return nil
}

func isNumberTag(n *yaml.Node) bool { return n.Tag == "!!int" || n.Tag == "!!float" }

// noOptions accepts nothing, null or {} as a generator's options.
func (p *parser) noOptions(n *yaml.Node, path string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" || n.Kind == yaml.MappingNode && len(n.Content) == 0 {
		return
	}
	p.fail(n, path, "takes no options: write {}")
}

// options returns the options mapping, treating nothing as empty.
func (p *parser) options(n *yaml.Node, path string, known ...string) map[string]entry {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return map[string]entry{}
	}
	return p.fields(n, path, known...)
}

func (p *parser) generatorOf(kind string, n *yaml.Node, path string, f *Family) generator {
	p.checkRewritable(kind, n, path)
	switch kind {
	case "const":
		return &constGen{text: []byte(p.scalar(n, path)), num: isNumberTag(n)}
	case "id":
		p.noOptions(n, path)
		if f.key.slot == slotNone {
			p.fail(n, path, "the key %q has no {id} or {uuid}", f.key.text)
		}
		return &idGen{f: f}
	case "key":
		p.noOptions(n, path)
		return keyGen{}
	case "uuid":
		p.noOptions(n, path)
		return uuidGen{}
	case "sequence":
		m := p.options(n, path, "start", "step")
		g := &seqGen{start: 1, step: 1}
		if e, ok := m["start"]; ok {
			g.start = p.integer(e.val, path+".start")
		}
		if e, ok := m["step"]; ok {
			g.step = p.integer(e.val, path+".step")
		}
		return g
	case "int":
		m := p.fields(n, path, "min", "max")
		g := &intGen{min: p.required(m, n, path, "min", p.integer), max: p.required(m, n, path, "max", p.integer)}
		if g.min > g.max {
			p.fail(m["max"].val, path+".max", "%d is below min %d", g.max, g.min)
		}
		return g
	case "float":
		m := p.fields(n, path, "min", "max", "decimals")
		g := &floatGen{decimals: 2}
		g.min, g.max = p.float(p.need(m, n, path, "min"), path+".min"), p.float(p.need(m, n, path, "max"), path+".max")
		if g.min > g.max {
			p.fail(m["max"].val, path+".max", "%v is below min %v", g.max, g.min)
		}
		if math.IsInf(g.max-g.min, 0) {
			p.fail(m["max"].val, path+".max", "the range from %v to %v is wider than a 64-bit float holds (at most %v)", g.min, g.max, math.MaxFloat64)
		}
		if e, ok := m["decimals"]; ok {
			d := p.integer(e.val, path+".decimals")
			if d < 0 || d > maxDecimals {
				p.fail(e.val, path+".decimals", "%d out of range (0 to %d)", d, maxDecimals)
			}
			g.decimals = int(d)
		}
		return g
	case "string":
		return p.stringGen(n, path)
	case "choice":
		return p.choice(n, path)
	case "timestamp":
		g := p.timestamp(n, path)
		if g.fromRel || g.toRel {
			f.relativeTime = true
		}
		return g
	case "fake":
		name := p.str(n, path)
		fn, ok := fakers[name]
		if !ok {
			p.fail(n, path, "unknown fake data %q (known: %s)", name, fakerNames())
		}
		return &fakeGen{fn: fn}
	case "concat":
		if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
			p.fail(n, path, "want a list of literals and generators, got %s", describe(n))
		}
		g := &concatGen{}
		for k, e := range n.Content {
			g.parts = append(g.parts, p.generator(resolve(e), path+"["+strconv.Itoa(k)+"]", f))
		}
		return g
	case "json":
		return &jsonGen{root: p.jsonNode(n, path, f)}
	}
	p.fail(n, path, "unknown generator %q", kind)
	return nil
}

// need returns the value of a required option.
func (p *parser) need(m map[string]entry, n *yaml.Node, path, name string) *yaml.Node {
	e, ok := m[name]
	if !ok {
		p.fail(n, join(path, name), "missing")
	}
	return e.val
}

func (p *parser) required(m map[string]entry, n *yaml.Node, path, name string, read func(*yaml.Node, string) int64) int64 {
	return read(p.need(m, n, path, name), join(path, name))
}

// stringGen reads `string: N`, `string: MIN-MAX` or `string: {length: , alphabet: }`.
func (p *parser) stringGen(n *yaml.Node, path string) generator {
	g := &stringGen{alphabet: alnum}
	ln, lpath := n, path
	if n.Kind == yaml.MappingNode {
		m := p.fields(n, path, "length", "alphabet")
		ln, lpath = p.need(m, n, path, "length"), path+".length"
		if e, ok := m["alphabet"]; ok {
			g.alphabet = p.str(e.val, path+".alphabet")
		}
	}
	s := p.scalar(ln, lpath)
	a, b, isRange := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := lo, error(nil)
	if isRange {
		hi, err2 = strconv.Atoi(strings.TrimSpace(b))
	}
	switch {
	case err1 != nil || err2 != nil:
		p.fail(ln, lpath, "want a length N or MIN-MAX, got %q", s)
	case lo < 0 || lo > hi || hi > maxStringLen:
		p.fail(ln, lpath, "length %q out of range (0 to %d, min not above max)", s, maxStringLen)
	}
	g.min, g.max = lo, hi
	return g
}

// choice reads `choice: [a, b]` or `choice: {values: [a, b], weights: [3, 1]}`.
func (p *parser) choice(n *yaml.Node, path string) generator {
	vn, vpath := n, path
	var wn *yaml.Node
	if n.Kind == yaml.MappingNode {
		m := p.fields(n, path, "values", "weights")
		vn, vpath = p.need(m, n, path, "values"), path+".values"
		if e, ok := m["weights"]; ok {
			wn = e.val
		}
	}
	if vn.Kind != yaml.SequenceNode || len(vn.Content) == 0 {
		p.fail(vn, vpath, "want a list of at least one value, got %s", describe(vn))
	}
	if len(vn.Content) > maxChoices {
		p.fail(vn, vpath, "%d values (at most %d)", len(vn.Content), maxChoices)
	}
	g := &choiceGen{num: true}
	for k, e := range vn.Content {
		e = resolve(e)
		g.values = append(g.values, []byte(p.scalar(e, vpath+"["+strconv.Itoa(k)+"]")))
		g.num = g.num && isNumberTag(e)
	}
	if wn != nil {
		if wn.Kind != yaml.SequenceNode || len(wn.Content) != len(vn.Content) {
			p.fail(wn, path+".weights", "want a list of %d weights, one per value", len(vn.Content))
		}
		var total uint64
		for k, e := range wn.Content {
			w := p.uint(resolve(e), path+".weights["+strconv.Itoa(k)+"]")
			if w > 1<<32 {
				p.fail(e, path+".weights["+strconv.Itoa(k)+"]", "at most %d", uint64(1<<32))
			}
			total += w
			g.cum = append(g.cum, total)
		}
		if total == 0 {
			p.fail(wn, path+".weights", "at least one weight must be above 0")
		}
	}
	return g
}

// timestamp reads `timestamp: {from: , to: , format: }`.
func (p *parser) timestamp(n *yaml.Node, path string) *timestampGen {
	m := p.options(n, path, "from", "to", "format")
	g := &timestampGen{fromRel: true, toRel: true, format: time.RFC3339}
	read := func(name string) (int64, bool) {
		e, ok := m[name]
		if !ok {
			return 0, true
		}
		s := p.scalar(e.val, join(path, name))
		if d, err := time.ParseDuration(s); err == nil {
			return d.Milliseconds(), true
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			p.fail(e.val, join(path, name), "want a time (2024-01-02T15:04:05Z) or a duration from the generation time (-720h, 0s), got %q", s)
		}
		return t.UnixMilli(), false
	}
	g.from, g.fromRel = read("from")
	g.to, g.toRel = read("to")
	if g.fromRel == g.toRel && g.from > g.to {
		p.fail(m["to"].val, path+".to", "is before from")
	}
	if g.fromRel != g.toRel {
		p.fail(n, path, "from and to must both be times or both durations from the generation time")
	}
	if e, ok := m["format"]; ok {
		f := p.str(e.val, path+".format")
		switch f {
		case tsUnix, tsUnixMS:
		case "rfc3339":
			f = time.RFC3339
		case "rfc3339_ms":
			f = "2006-01-02T15:04:05.000Z07:00"
		default:
			ref := time.Date(2001, 3, 4, 7, 8, 9, 0, time.UTC)
			if ref.Format(f) == f {
				p.fail(e.val, path+".format", "want unix, unix_ms, rfc3339, rfc3339_ms or a Go time layout such as \"2006-01-02 15:04:05\", got %q", f)
			}
		}
		g.format = f
	}
	return g
}

// jsonNode reads the template of a json generator.
func (p *parser) jsonNode(n *yaml.Node, path string, f *Family) jsonNode {
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content) == 2 {
			if kn := resolve(n.Content[0]); kn.Kind == yaml.ScalarNode && slices.Contains(generatorKinds, kn.Value) {
				return jsonNode{gen: p.generator(n, path, f)}
			}
		}
		var out jsonNode
		for k := 0; k+1 < len(n.Content); k += 2 {
			kn := resolve(n.Content[k])
			name := p.scalar(kn, path)
			out.keys = append(out.keys, name)
			out.elems = append(out.elems, p.jsonNode(resolve(n.Content[k+1]), join(path, name), f))
		}
		if out.keys == nil {
			out.raw = []byte("{}")
		}
		return out
	case yaml.SequenceNode:
		out := jsonNode{array: true}
		for k, e := range n.Content {
			out.elems = append(out.elems, p.jsonNode(resolve(e), path+"["+strconv.Itoa(k)+"]", f))
		}
		return out
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return jsonNode{raw: []byte("null")}
		case "!!bool":
			return jsonNode{raw: []byte(strconv.FormatBool(n.Value == "true" || n.Value == "True" || n.Value == "TRUE"))}
		case "!!int":
			if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 10, 64); err == nil {
				return jsonNode{raw: strconv.AppendInt(nil, v, 10)}
			}
		case "!!float":
			if v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
				return jsonNode{raw: strconv.AppendFloat(nil, v, 'g', -1, 64)}
			}
		}
		return jsonNode{raw: appendJSONString(nil, n.Value)}
	}
	p.fail(n, path, "want a JSON template, got %s", describe(n))
	return jsonNode{}
}
