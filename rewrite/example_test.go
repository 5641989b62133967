package rewrite_test

import (
	"fmt"
	"log"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/rewrite"
)

func Example() {
	rules, err := rewrite.Parse("rules.yaml", []byte(`
seed: 7
rules:
  - key: "user:*"
    rename: {concat: [u, {int: {min: 1000, max: 9999}}]}
    fields: {email: {concat: [{string: {length: 6, alphabet: abcdefghijklmnopqrstuvwxyz}}, "@example.com"]}}
  - key: "users"
    members: {concat: [u, {int: {min: 1000, max: 9999}}]}
`))
	if err != nil {
		log.Fatal(err)
	}
	var out record.Collector // keeps the last record; an *rdbsink.Writer writes a file
	s, err := rewrite.New(&out, rules)
	if err != nil {
		log.Fatal(err)
	}
	s.BeginDB(0, record.Counts{})
	user := record.Record{Key: []byte("user:42"), Type: record.Hash, Members: []record.Member{
		{Name: []byte("email"), Value: []byte("ann@corp.example")},
		{Name: []byte("plan"), Value: []byte("gold")},
	}}
	user.WriteTo(s)
	fmt.Printf("%s %s=%s %s=%s\n", out.Rec.Key, out.Rec.Members[0].Name, out.Rec.Members[0].Value, out.Rec.Members[1].Name, out.Rec.Members[1].Value)
	ids := record.Record{Key: []byte("users"), Type: record.Set, Members: []record.Member{{Name: []byte("42")}}}
	ids.WriteTo(s)
	fmt.Printf("%s {%s}\n", out.Rec.Key, out.Rec.Members[0].Name)
	fmt.Printf("%+v\n", s.Stats())
	// Output:
	// user:u6893 email=ofuobd@example.com plan=gold
	// users {u6893}
	// {Keys:2 Renamed:1 Values:3}
}
