package spec

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestParseGenerator(t *testing.T) {
	tests := []struct {
		name, src, err string
		numeric        bool
	}{
		{"literal", "xyz", "", false},
		{"number", "42", "", true},
		{"fake", "{fake: email}", "", false},
		{"uuid", "{uuid: {}}", "", false},
		{"int", "{int: {min: 1, max: 9}}", "", true},
		{"string", "{string: 8-16}", "", false},
		{"concat", "{concat: [u-, {string: 4}]}", "", false},
		{"json", "{json: {a: {fake: name}, b: 1}}", "", false},
		{"absolute timestamp", "{timestamp: {from: 2024-01-01T00:00:00Z, to: 2024-02-01T00:00:00Z, format: unix}}", "", true},
		{"id", "{id: {}}", "r.yaml:1:6: v.id: id is not available in rewrite rules", false},
		{"key", "{key: {}}", "r.yaml:1:7: v.key: key is not available", false},
		{"sequence in json", "{json: {a: {sequence: {}}}}", "r.yaml:1:23: v.json.a.sequence: sequence is not available", false},
		{"relative timestamp", "{timestamp: {from: -1h, to: 0s}}", "r.yaml:1:1: v: a rewritten value depends on the value it replaces only", false},
		{"unknown", "{nope: 1}", "r.yaml:1:2: v.nope: unknown generator", false},
		{"null", "~", "r.yaml:1:1: v: no value", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := ParseYAML("r.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			g, err := ParseGenerator("r.yaml", n, "v")
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) || !errors.Is(err, ErrInvalid) {
					t.Fatalf("got %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.Numeric() != tt.numeric {
				t.Errorf("Numeric() = %v", g.Numeric())
			}
			a, b := g.Append(nil, 12345), g.Append([]byte("pre:"), 12345)
			if "pre:"+string(a) != string(b) {
				t.Errorf("one state gave %q and %q", a, b)
			}
		})
	}
}

func TestParseGeneratorStatesDiffer(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("{fake: email}"), &n); err != nil {
		t.Fatal(err)
	}
	g, err := ParseGenerator("r.yaml", n.Content[0], "v")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for s := range uint64(100) {
		seen[string(g.Append(nil, s*0x9e3779b97f4a7c15))] = true
	}
	if len(seen) < 95 {
		t.Errorf("100 states gave %d e-mail addresses", len(seen))
	}
}

func TestParseYAML(t *testing.T) {
	if n, err := ParseYAML("e.yaml", nil); n != nil || err != nil {
		t.Errorf("empty: %v, %v", n, err)
	}
	if _, err := ParseYAML("e.yaml", []byte("a: [")); err == nil || !strings.HasPrefix(err.Error(), "e.yaml:1: YAML:") {
		t.Errorf("syntax error: %v", err)
	}
}
