package rewrite

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "rules.yaml: the file is empty (a rules file lists its rules under rules:)"},
		{"syntax", "rules: [\n", "rules.yaml:1: YAML: did not find expected node content"},
		{"top not mapping", "- a\n", `rules.yaml:1:1: want a mapping of seed, rules, got a list`},
		{"unknown top", "seeds: 3\n", "rules.yaml:1:1: seeds: unknown field (known: seed, rules)"},
		{"no rules", "seed: 3\n", "rules.yaml:1:1: rules: missing: a rules file lists its rules under rules:"},
		{"empty rules", "rules: []\n", `rules.yaml:1:8: rules: want a list of at least one rule, got a list`},
		{"bad seed", "seed: -1\nrules: []\n", `rules.yaml:1:7: seed: want a whole number of at least 0, got "-1"`},
		{"no key", "rules:\n  - value: {uuid: {}}\n", `rules.yaml:2:5: rules[0].key: missing: each rule needs a key pattern such as "user:*"`},
		{"empty key", "rules:\n  - key: ''\n    value: x\n", `rules.yaml:2:10: rules[0].key: want a non-empty text, got ""`},
		{"nothing", "rules:\n  - key: a\n", "rules.yaml:2:5: rules[0]: rewrites nothing: give rename, value, members, field_names, fields, value_is_key or members_are_keys"},
		{"unknown part", "rules:\n  - key: a\n    valeu: x\n", "rules.yaml:3:5: rules[0].valeu: unknown field (known: key, type, rename, value, members, field_names, fields, value_is_key, members_are_keys)"},
		{"twice", "rules:\n  - key: a\n    value: x\n    value: y\n", "rules.yaml:4:5: rules[0].value: given twice (first at line 3)"},
		{"bad type", "rules:\n  - key: a\n    type: bitmap\n    value: x\n", `rules.yaml:3:11: rules[0].type: unknown type "bitmap" (known: string, hash, list, set, zset, stream, module, module:NAME)`},
		{"bad module type", "rules:\n  - key: a\n    type: module:json\n", `rules.yaml:3:11: rules[0].type: record: invalid module type name`},
		{"wrong part for type", "rules:\n  - key: a\n    type: string\n    members: {uuid: {}}\n", "rules.yaml:4:5: rules[0].members: applies to list, set, zset keys, not to type string"},
		{"fields of a set", "rules:\n  - key: a\n    type: set\n    fields: {email: {fake: email}}\n", "rules.yaml:4:5: rules[0].fields: applies to hash, stream keys, not to type set"},
		{"rename two stars", "rules:\n  - key: 'a:*:*'\n    rename: {uuid: {}}\n", `rules.yaml:3:5: rules[0].rename: a key rewrite needs a pattern with one "*" and no other wildcard ("user:*", "session:*:data"), got "a:*:*"`},
		{"rename question", "rules:\n  - key: 'a:?*'\n    rename: {uuid: {}}\n", `rules.yaml:3:5: rules[0].rename: a key rewrite needs a pattern with one "*" and no other wildcard ("user:*", "session:*:data"), got "a:?*"`},
		{"unknown generator", "rules:\n  - key: a\n    value: {fakes: email}\n", "rules.yaml:3:13: rules[0].value.fakes: unknown generator (known: const, id, key, sequence, int, float, string, choice, uuid, timestamp, fake, concat, json)"},
		{"unknown fake", "rules:\n  - key: a\n    value: {fake: emial}\n", `rules.yaml:3:19: rules[0].value.fake: unknown fake data "emial"`},
		{"id refused", "rules:\n  - key: a\n    value: {id: {}}\n", "rules.yaml:3:17: rules[0].value.id: id is not available in rewrite rules: a rewritten value depends on the value it replaces only"},
		{"sequence in concat", "rules:\n  - key: a\n    value: {concat: [x, {sequence: {}}]}\n", "rules.yaml:3:36: rules[0].value.concat[1].sequence: sequence is not available in rewrite rules"},
		{"relative time", "rules:\n  - key: a\n    value: {timestamp: {from: -1h, to: 0s}}\n", "rules.yaml:3:12: rules[0].value: a rewritten value depends on the value it replaces only: give timestamps absolute"},
		{"not a bool", "rules:\n  - key: a\n    value_is_key: yes please\n", `rules.yaml:3:19: rules[0].value_is_key: want true or false, got "yes please"`},
		{"keys and generator", "rules:\n  - key: a\n    members: x\n    members_are_keys: true\n", "rules.yaml:4:5: rules[0].members_are_keys: goes without members: a member is either rewritten by a generator or renamed as the key it names"},
		{"value key of a set", "rules:\n  - key: a\n    type: set\n    value_is_key: true\n", "rules.yaml:4:5: rules[0].value_is_key: applies to string keys, not to type set"},
		{"alias bomb", "rules:\n  - key: a\n    value: {concat: [&a {concat: [x, x, x, x]}" + aliasBomb("a", 15) + "]}\n", "rules.yaml:1:1: more than 100000 values once aliases are expanded"},
		{"fields not mapping", "rules:\n  - key: a\n    fields: [email]\n", "rules.yaml:3:13: rules[0].fields: want a mapping of field-name patterns to generators, got a list"},
		{"field twice", "rules:\n  - key: a\n    fields:\n      e: x\n      e: y\n", "rules.yaml:5:7: rules[0].fields.e: given twice (first at line 4)"},
		{"field generator", "rules:\n  - key: a\n    fields:\n      e: {string: 0-x}\n", `rules.yaml:4:19: rules[0].fields.e.string: want a length N or MIN-MAX, got "0-x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("rules.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error\n %s\nwant it to start with\n %s", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error has more than one line: %q", err)
			}
			var se *spec.Error
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *spec.Error", err)
			}
		})
	}
}

// aliasBomb returns n levels of concats, each of four aliases of the one before: 4^n nodes.
func aliasBomb(prev string, n int) string {
	var b strings.Builder
	for k := range n {
		name := fmt.Sprintf("l%d", k)
		fmt.Fprintf(&b, ", &%s {concat: [*%s, *%s, *%s, *%s]}", name, prev, prev, prev, prev)
		prev = name
	}
	return b.String()
}

const exampleRules = `# Anonymise users, their sessions and the sets that name them.
seed: 20261201
rules:
  - key: "user:*"
    type: hash
    rename: {uuid: {}}
    fields:
      email: {fake: email}
      "*name": {fake: name}
      token: {string: 32}
  - key: "users:*"
    members: {uuid: {}}
  - key: "session:*"
    rename: {string: 32}
    value: {uuid: {}}
  - key: "newsletter"
    members: {fake: email}
  - key: "profile:*"
    field_names: {concat: ["f-", {string: 12}]}
  - key: "*:idx"
    members_are_keys: true
  - key: "current:*"
    value_is_key: true
`

func TestDescribeGolden(t *testing.T) {
	rs, err := Parse("rules.yaml", []byte(exampleRules))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(rs.Describe(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "describe.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("Describe() =\n%s\nwant\n%s", got, want)
	}
}

func TestParseDefaults(t *testing.T) {
	rs, err := Parse("r.yaml", []byte("rules:\n  - key: a\n    value: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if rs.Seed != DefaultSeed || len(rs.Rules) != 1 || rs.Rules[0].Type != "" || rs.Rules[0].Line != 2 {
		t.Errorf("got seed %d, %d rules, %+v", rs.Seed, len(rs.Rules), rs.Rules[0])
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(exampleRules))
	f.Add([]byte("rules:\n  - key: a\n    value: x\n"))
	f.Add([]byte("rules:\n  - key: 'a:*'\n    rename: {concat: [x, {int: {min: 1, max: 9}}]}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		rs, err := Parse("f.yaml", src)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error has more than one line: %q", err)
			}
			return
		}
		if _, err := json.Marshal(rs.Describe()); err != nil {
			t.Fatalf("Describe does not marshal: %v", err)
		}
	})
}
