package spec

import (
	"errors"
	"strings"
	"testing"
)

// TestParseErrors checks that each malformed spec gets one error naming the file, line,
// column and field that is wrong.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // the whole "file:line:col: field: message" prefix or a fragment of it
	}{
		{"empty", ``, "t.yaml: the file is empty"},
		{"yaml syntax", "families:\n  - key: a\n    value: \"x\n", "t.yaml:3"},
		{"yaml tab", "families:\n\t- key: a\n", "t.yaml:2: YAML: found character that cannot start any token"},
		{"not a mapping", "- a\n", "t.yaml:1:1: want a mapping of seed, families"},
		{"unknown top field", "famlies: []\n", `t.yaml:1:1: famlies: unknown field (known: seed, families)`},
		{"no families", "seed: 3\n", "t.yaml:1:1: families: missing"},
		{"families not a list", "families: {}\n", "t.yaml:1:11: families: want a list of at least one family"},
		{"bad seed", "seed: -1\nfamilies: []\n", `t.yaml:1:7: seed: want a whole number of at least 0, got "-1"`},
		{"missing key", "families:\n  - count: 1\n", "t.yaml:2:5: families[0].key: missing"},
		{"unknown family field", "families:\n  - key: a\n    valu: x\n", `t.yaml:3:5: families[0].valu: unknown field`},
		{"duplicate field", "families:\n  - key: a\n    value: x\n    value: y\n", "t.yaml:4:5: families[0].value: given twice (first at line 3)"},
		{"bad placeholder", "families:\n  - key: \"u:{name}\"\n    count: 2\n    value: x\n", "t.yaml:2:10: families[0].key: unknown placeholder {name}"},
		{"two placeholders", "families:\n  - key: \"{id}:{uuid}\"\n    count: 2\n    value: x\n", "more than one placeholder"},
		{"unclosed brace", "families:\n  - key: \"a{\"\n    value: x\n", `families[0].key: "{" without a closing "}"`},
		{"stray brace", "families:\n  - key: \"a}\"\n    value: x\n", `families[0].key: "}" without an opening "{"`},
		{"count without id", "families:\n  - key: a\n    count: 3\n    value: x\n", "t.yaml:3:12: families[0].count: 3 keys need an {id} or {uuid}"},
		{"missing count", "families:\n  - key: \"a{id}\"\n    value: x\n", "t.yaml:2:5: families[0].count: missing"},
		{"negative count", "families:\n  - key: \"a{id}\"\n    count: -5\n    value: x\n", `t.yaml:3:12: families[0].count: want a whole number of at least 0, got "-5"`},
		{"id_start without id", "families:\n  - key: \"a{uuid}\"\n    count: 2\n    id_start: 5\n    value: x\n", "t.yaml:4:5: families[0].id_start: goes with an {id}"},
		{"overflow", "families:\n  - key: \"a{id}\"\n    count: 10\n    id_start: 18446744073709551610\n    value: x\n", "overflows"},
		{"bad type", "families:\n  - key: a\n    type: strem\n    value: x\n", `t.yaml:3:11: families[0].type: unknown type "strem"`},
		{"stream without entries", "families:\n  - key: a\n    type: stream\n    fields: {f: x}\n", "t.yaml:2:5: families[0].entries: missing: how many entries"},
		{"stream without fields", "families:\n  - key: a\n    type: stream\n    entries: 3\n", "t.yaml:2:5: families[0].fields: missing: the fields of each entry"},
		{"stream with members", "families:\n  - key: a\n    type: stream\n    entries: 3\n    fields: {f: x}\n    members: {count: 2, value: x}\n", "t.yaml:6:5: families[0].members: does not go with a stream"},
		{"stream of no entries", "families:\n  - key: a\n    type: stream\n    entries: 0\n    fields: {f: x}\n", "families[0].entries: at least 1 member"},
		{"field_ttl of no field", "families:\n  - key: a\n    type: hash\n    fields: {f: x}\n    field_ttl: {g: 1m}\n", "t.yaml:5:17: families[0].field_ttl.g: no such field in fields:"},
		{"field_ttl not positive", "families:\n  - key: a\n    type: hash\n    fields: {f: x}\n    field_ttl: {f: 0s}\n", "families[0].field_ttl.f: must be positive"},
		{"field_ttl jitter", "families:\n  - key: a\n    type: hash\n    fields: {f: x}\n    field_ttl: {f: {ttl: 1m, jitter: 2m}}\n", "families[0].field_ttl.f.jitter: 2m0s must be at least 0 and less than the ttl 1m0s"},
		{"field_ttl on members", "families:\n  - key: a\n    type: hash\n    members: {count: 2, field: {string: 5}, value: x}\n    field_ttl: {f: 1m}\n", "t.yaml:5:5: families[0].field_ttl: goes with a hash's fields:"},
		{"field_ttl on a string", "families:\n  - key: a\n    value: x\n    field_ttl: {f: 1m}\n", "t.yaml:4:5: families[0].field_ttl: goes with a hash's fields:"},
		{"groups on a hash", "families:\n  - key: a\n    type: hash\n    fields: {f: x}\n    groups: [{name: g}]\n", "t.yaml:5:5: families[0].groups: goes with a stream"},
		{"group twice", "families:\n  - key: a\n    type: stream\n    entries: 3\n    fields: {f: x}\n    groups: [{name: g}, {name: g}]\n", `families[0].groups[1].name: group "g" given twice`},
		{"group share", "families:\n  - key: a\n    type: stream\n    entries: 3\n    fields: {f: x}\n    groups: [{name: g, pending: 2}]\n", "families[0].groups[0].pending: want a share from 0 to 1"},
		{"group without name", "families:\n  - key: a\n    type: stream\n    entries: 3\n    fields: {f: x}\n    groups: [{consumers: 2}]\n", "families[0].groups[0].name: missing"},
		{"entries on a hash", "families:\n  - key: a\n    type: hash\n    entries: 3\n    fields: {f: x}\n", "t.yaml:4:5: families[0].entries: goes with a stream"},
		{"bad db", "families:\n  - key: a\n    db: -1\n    value: x\n", "t.yaml:3:9: families[0].db: db -1 out of range"},
		{"bad ttl", "families:\n  - key: a\n    ttl: soon\n    value: x\n", `t.yaml:3:10: families[0].ttl: want a duration such as 30s, 15m or 1h30m, got "soon"`},
		{"zero ttl", "families:\n  - key: a\n    ttl: 0s\n    value: x\n", "families[0].ttl: must be positive"},
		{"jitter without ttl", "families:\n  - key: a\n    ttl_jitter: 1m\n    value: x\n", "t.yaml:3:5: families[0].ttl_jitter: needs a ttl"},
		{"jitter too big", "families:\n  - key: a\n    ttl: 1m\n    ttl_jitter: 1m\n    value: x\n", "families[0].ttl_jitter: 1m0s must be at least 0 and less than the ttl"},
		{"string without value", "families:\n  - key: a\n", "t.yaml:2:5: families[0].value: missing"},
		{"string with members", "families:\n  - key: a\n    value: x\n    members: {count: 1}\n", "t.yaml:4:5: families[0].members: goes with a hash"},
		{"hash with value", "families:\n  - key: a\n    type: hash\n    value: x\n", "families[0].value: goes with a string; a hash takes fields: or members:"},
		{"set with fields", "families:\n  - key: a\n    type: set\n    fields: {a: b}\n", "families[0].fields: goes with a hash; a set takes members:"},
		{"hash without fields", "families:\n  - key: a\n    type: hash\n", "families[0].members: missing: a hash takes fields: or members:"},
		{"hash both", "families:\n  - key: a\n    type: hash\n    fields: {a: b}\n    members: {count: 1, field: x, value: y}\n", "not both"},
		{"duplicate hash field", "families:\n  - key: a\n    type: hash\n    fields:\n      a: 1\n      a: 2\n", "t.yaml:6:7: families[0].fields.a: field given twice (first at line 5)"},
		{"zero members", "families:\n  - key: a\n    type: set\n    members: {count: 0, value: x}\n", "families[0].members.count: at least 1 member"},
		{"bad member range", "families:\n  - key: a\n    type: list\n    members: {count: 5-2, value: x}\n", "the minimum 5 is above the maximum 2"},
		{"set of constants", "families:\n  - key: a\n    type: set\n    members: {count: 3, value: x}\n", "families[0].members.value: makes at most 1 distinct set names, but each set needs 3"},
		{"small choice", "families:\n  - key: a\n    type: set\n    members: {count: 3, value: {choice: [a, b]}}\n", "makes at most 2 distinct"},
		{"score on set", "families:\n  - key: a\n    type: set\n    members: {count: 3, value: {sequence: {}}, score: 1}\n", "families[0].members.score: does not go with a set"},
		{"text score", "families:\n  - key: a\n    type: zset\n    members: {count: 3, value: {sequence: {}}, score: {fake: name}}\n", "a score must be a number"},
		{"hash members without field", "families:\n  - key: a\n    type: hash\n    members: {count: 3, value: x}\n", "families[0].members.field: missing"},
		{"unknown of_family", "families:\n  - key: a\n    type: set\n    members: {of_family: b}\n", `families[0].members.of_family: no family is named "b"`},
		{"of_family fixed key", "families:\n  - key: b\n    value: x\n  - key: a\n    type: set\n    members: {of_family: b}\n", "has a single fixed key"},
		{"of_family empty", "families:\n  - key: \"b{id}\"\n    count: 0\n    value: x\n  - key: a\n    type: set\n    members: {of_family: \"b{id}\"}\n", "has count 0"},
		{"of_family and value", "families:\n  - key: \"b{id}\"\n    count: 2\n    value: x\n  - key: a\n    type: set\n    members: {of_family: \"b{id}\", value: x}\n", "of_family gives the set names"},
		{"unknown generator", "families:\n  - key: a\n    value: {random: 3}\n", `t.yaml:3:13: families[0].value.random: unknown generator (known: const, id`},
		{"null value", "families:\n  - key: a\n    value:\n", "families[0].value: no value"},
		{"list value", "families:\n  - key: a\n    value: [1, 2]\n", "families[0].value: got a list: a generator is a literal"},
		{"id without slot", "families:\n  - key: a\n    value: {id: {}}\n", `families[0].value.id: the key "a" has no {id} or {uuid}`},
		{"uuid options", "families:\n  - key: a\n    value: {uuid: {v: 7}}\n", "families[0].value.uuid: takes no options"},
		{"int min above max", "families:\n  - key: a\n    value: {int: {min: 5, max: 1}}\n", "t.yaml:3:32: families[0].value.int.max: 1 is below min 5"},
		{"int missing max", "families:\n  - key: a\n    value: {int: {min: 5}}\n", "families[0].value.int.max: missing"},
		{"float nan", "families:\n  - key: a\n    value: {float: {min: .nan, max: 1}}\n", "families[0].value.float.min: want a finite number"},
		{"float decimals", "families:\n  - key: a\n    value: {float: {min: 0, max: 1, decimals: 40}}\n", "families[0].value.float.decimals: 40 out of range"},
		{"string length", "families:\n  - key: a\n    value: {string: abc}\n", `families[0].value.string: want a length N or MIN-MAX, got "abc"`},
		{"string too long", "families:\n  - key: a\n    value: {string: 99999999}\n", "out of range"},
		{"empty choice", "families:\n  - key: a\n    value: {choice: []}\n", "families[0].value.choice: want a list of at least one value"},
		{"weights count", "families:\n  - key: a\n    value: {choice: {values: [a, b], weights: [1]}}\n", "families[0].value.choice.weights: want a list of 2 weights"},
		{"zero weights", "families:\n  - key: a\n    value: {choice: {values: [a, b], weights: [0, 0]}}\n", "at least one weight must be above 0"},
		{"bad timestamp", "families:\n  - key: a\n    value: {timestamp: {from: yesterday}}\n", `families[0].value.timestamp.from: want a time`},
		{"timestamp order", "families:\n  - key: a\n    value: {timestamp: {from: 1h, to: 0s}}\n", "families[0].value.timestamp.to: is before from"},
		{"timestamp mixed", "families:\n  - key: a\n    value: {timestamp: {from: 2024-01-01T00:00:00Z, to: 0s}}\n", "must both be times or both durations"},
		{"timestamp format", "families:\n  - key: a\n    value: {timestamp: {format: iso}}\n", `families[0].value.timestamp.format: want unix, unix_ms`},
		{"unknown fake", "families:\n  - key: a\n    value: {fake: nmae}\n", `families[0].value.fake: unknown fake data "nmae" (known: address, city`},
		{"empty concat", "families:\n  - key: a\n    value: {concat: []}\n", "families[0].value.concat: want a list"},
		{"bad concat part", "families:\n  - key: a\n    value: {concat: [a, {nope: 1}]}\n", "families[0].value.concat[1].nope: unknown generator"},
		{"bad json leaf", "families:\n  - key: a\n    value: {json: {a: {int: {min: 2, max: 1}}}}\n", "families[0].value.json.a.int.max: 1 is below min 2"},
		{"duplicate names", "families:\n  - key: a\n    value: x\n  - name: a\n    key: b\n    value: y\n", `t.yaml:4:5: families[1].name: family name "a" used twice (first at line 2)`},
		{"same key", "families:\n  - key: a\n    value: x\n  - key: a\n    name: other\n    value: y\n", `t.yaml:4:10: families[1].key: family "other" (key "a") and family "a" at line 2 (key "a") both make the key "a" in db 0`},
		{"id ranges meet", "families:\n  - key: \"u:{id}\"\n    count: 10\n    value: x\n  - key: \"u:{id}\"\n    name: more\n    id_start: 10\n    count: 5\n    value: y\n", `both make the key "u:10"`},
		{"prefix inside pattern", "families:\n  - key: \"u:{id}\"\n    count: 20\n    value: x\n  - key: \"u:1{id}\"\n    count: 5\n    value: y\n", `both make the key "u:11"`},
		{"fixed key inside pattern", "families:\n  - key: \"u:{id}\"\n    count: 20\n    value: x\n  - key: \"u:7\"\n    value: y\n", `both make the key "u:7"`},
		{"alias to bad node", "x: &bad {int: {min: 3, max: 1}}\nfamilies:\n  - key: a\n    value: *bad\n", "x: unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got  %q\nwant %q", err, tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("%v does not wrap ErrInvalid", err)
			}
			if !strings.HasPrefix(err.Error(), "t.yaml") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q does not start with the file name on one line", err)
			}
		})
	}
}

// TestParseAccepts checks specs that are valid, including keys that share a prefix but
// cannot meet.
func TestParseAccepts(t *testing.T) {
	tests := []struct{ name, src string }{
		{"disjoint id ranges", "families:\n  - key: \"u:{id}\"\n    count: 10\n    value: x\n  - key: \"u:{id}\"\n    name: more\n    id_start: 11\n    count: 5\n    value: y\n"},
		{"other db", "families:\n  - key: a\n    value: x\n  - key: a\n    name: b\n    db: 1\n    value: y\n"},
		{"prefix of a fixed key", "families:\n  - key: \"refresh-token:{id}\"\n    count: 10\n    value: x\n  - key: refresh-token\n    value: y\n"},
		{"suffixes differ", "families:\n  - key: \"u:{id}:a\"\n    count: 10\n    value: x\n  - key: \"u:{id}:b\"\n    count: 10\n    value: y\n"},
		{"uuid beside id", "families:\n  - key: \"s:{uuid}\"\n    count: 1000\n    value: x\n  - key: \"s:{id}\"\n    count: 1000\n    value: y\n"},
		{"two uuid families", "families:\n  - key: \"s:{uuid}\"\n    count: 1000\n    value: x\n  - key: \"s:{uuid}\"\n    name: other\n    count: 1000\n    value: y\n"},
		{"hash tag braces", "families:\n  - key: \"{{user:{id}}}:profile\"\n    count: 3\n    value: x\n"},
		{"anchors", "families:\n  - key: \"a{id}\"\n    count: &n 5\n    value: &v {int: {min: 1, max: 9}}\n  - key: \"b{id}\"\n    count: *n\n    value: *v\n"},
		{"every generator", `families:
  - key: "k{id}"
    count: 2
    type: hash
    fields:
      c: {const: 7}
      i: {id: {}}
      k: {key: {}}
      s: {sequence: {start: 10, step: -2}}
      n: {int: {min: -5, max: 5}}
      f: {float: {min: 0, max: 1, decimals: 3}}
      r: {string: {length: 4-8, alphabet: xyz}}
      c2: {choice: {values: [a, b], weights: [1, 3]}}
      u: {uuid: {}}
      t: {timestamp: {from: 2020-01-01T00:00:00Z, to: 2021-01-01T00:00:00Z, format: "2006-01-02"}}
      fk: {fake: email}
      cc: {concat: [user-, {id: {}}, "@example.com"]}
      j: {json: {a: [1, 2.5, true, null, x], b: {sequence: {}}, e: {}}}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse("t.yaml", []byte(tt.src)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// FuzzParse checks that no input makes Parse panic, and that a failure is an *Error.
func FuzzParse(f *testing.F) {
	f.Add([]byte("families:\n  - key: \"u:{id}\"\n    count: 3\n    value: {int: {min: 1, max: 9}}\n"))
	f.Add([]byte("families:\n  - key: a\n    type: zset\n    members: {count: 2-4, value: {uuid: {}}, score: {float: {min: 0, max: 1}}}\n"))
	f.Add([]byte("x: &a [*a]\nfamilies: *a\n"))
	f.Add([]byte("families:\n  - key: \"e:{id}\"\n    count: 2\n    type: stream\n    entries: 1-5\n    fields: {a: {sequence: {}}, b: x}\n    groups: [{name: g, consumers: 2, delivered: 0.5, pending: 1}]\n"))
	f.Add([]byte("families:\n  - key: h\n    type: hash\n    fields: {a: x, b: y}\n    field_ttl: {a: 1m, b: {ttl: 1h, jitter: 1m}}\n"))
	f.Add([]byte("families:\n  - key: \"{{x}}{uuid}\"\n    count: 3\n    type: set\n    members: {of_family: \"{{x}}{uuid}\"}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Parse("f.yaml", src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T %v is not an *Error", err, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		for _, fam := range s.Families {
			if fam.Keys() > 0 && (fam.members == nil || fam.members.max <= 1000) {
				if _, err := fam.Record(0); err != nil && !errors.Is(err, ErrTooFewDistinct) {
					t.Fatalf("record 0 of %s: %v", fam.Name, err)
				}
			}
		}
	})
}
