package spec

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"
)

// The contents of streams (entries:, fields:, groups:) and the expiries of hash fields
// (field_ttl:).

// streamContents reads a stream's entries (how many a key holds) and fields (each entry's
// fields, in order, with the generators of their values).
func (p *parser) streamContents(f *Family, n *yaml.Node, m map[string]entry) {
	path := f.path
	for _, name := range []string{"value", "members"} {
		if e, ok := m[name]; ok {
			p.fail(e.key, join(path, name), "does not go with a stream (it takes entries: and fields:)")
		}
	}
	entries, ok := m["entries"]
	if !ok {
		p.fail(n, path+".entries", "missing: how many entries each stream holds (N or MIN-MAX)")
	}
	f.members = &members{}
	f.members.min, f.members.max = p.countRange(entries.val, path+".entries")
	fields, ok := m["fields"]
	if !ok {
		p.fail(n, path+".fields", "missing: the fields of each entry, names mapped to generators")
	}
	p.namedFields(f, fields.val, path+".fields")
	if e, ok := m["groups"]; ok {
		p.streamGroups(f, e.val, path+".groups")
	}
}

// streamGroups reads a stream's consumer groups: each a name, a number of consumers, the
// share of every stream's entries delivered to the group, and the share of those still
// pending.
func (p *parser) streamGroups(f *Family, n *yaml.Node, path string) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.fail(n, path, "want a list of groups such as {name: workers, consumers: 2, delivered: 0.9, pending: 0.1}, got %s", describe(n))
	}
	seen := map[string]bool{}
	for k, gn := range n.Content {
		gpath := fmt.Sprintf("%s[%d]", path, k)
		m := p.fields(resolve(gn), gpath, "name", "consumers", "delivered", "pending")
		g := streamGroup{consumers: 1, delivered: 1}
		e, ok := m["name"]
		if !ok {
			p.fail(gn, gpath+".name", "missing")
		}
		g.name = p.str(e.val, gpath+".name")
		if seen[g.name] {
			p.fail(e.val, gpath+".name", "group %q given twice", g.name)
		}
		seen[g.name] = true
		if e, ok := m["consumers"]; ok {
			if g.consumers = p.uint(e.val, gpath+".consumers"); g.consumers < 1 || g.consumers > 1000 {
				p.fail(e.val, gpath+".consumers", "want 1 to 1000 consumers")
			}
		}
		for _, share := range []struct {
			name string
			v    *float64
		}{{"delivered", &g.delivered}, {"pending", &g.pending}} {
			if e, ok := m[share.name]; ok {
				if *share.v = p.float(e.val, gpath+"."+share.name); *share.v < 0 || *share.v > 1 {
					p.fail(e.val, gpath+"."+share.name, "want a share from 0 to 1")
				}
			}
		}
		f.groups = append(f.groups, g)
	}
}

// fieldTTLs reads the expiries of a hash's named fields (Redis 7.4+): a mapping of field
// names to a ttl, or to {ttl: , jitter: }, counted like a key's ttl from the base time.
func (p *parser) fieldTTLs(f *Family, n *yaml.Node, path string) {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		p.fail(n, path, "want a mapping of field names to a ttl (e.g. token: 30m) or {ttl: 30m, jitter: 5m}, got %s", describe(n))
	}
	for k := 0; k+1 < len(n.Content); k += 2 {
		kn, vn := resolve(n.Content[k]), resolve(n.Content[k+1])
		name := p.scalar(kn, path)
		at := slices.IndexFunc(f.fields, func(fd field) bool { return string(fd.name) == name })
		if at < 0 {
			p.fail(kn, join(path, name), "no such field in fields:")
		}
		fd := &f.fields[at]
		if fd.ttl > 0 {
			p.fail(kn, join(path, name), "given twice")
		}
		if vn.Kind == yaml.MappingNode {
			m := p.fields(vn, join(path, name), "ttl", "jitter")
			e, ok := m["ttl"]
			if !ok {
				p.fail(vn, join(path, name)+".ttl", "missing")
			}
			fd.ttl = p.duration(e.val, join(path, name)+".ttl")
			if j, ok := m["jitter"]; ok {
				fd.jitter = p.duration(j.val, join(path, name)+".jitter")
				if fd.jitter < 0 || fd.jitter >= fd.ttl {
					p.fail(j.val, join(path, name)+".jitter", "%s must be at least 0 and less than the ttl %s", fd.jitter, fd.ttl)
				}
			}
		} else {
			fd.ttl = p.duration(vn, join(path, name))
		}
		if fd.ttl <= 0 {
			p.fail(vn, join(path, name), "must be positive")
		}
		f.fieldTTL = true
	}
}
