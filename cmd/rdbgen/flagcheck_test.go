package main

import (
	"context"
	"path/filepath"
	"testing"
)

// TestEmptyValuesRefused: an empty value is an error naming the flag, never another meaning
// (--match "" kept every key, --type "" strings only); a number flag's bad value is one line
// naming the flag and the value, not strconv's words (issue 22, items 10 and 24).
func TestEmptyValuesRefused(t *testing.T) {
	dump := generateWith(t, "--count", "3")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", dump, "--match", ""}, `--match "": an empty value is not allowed: give one, or leave the flag out`},
		{[]string{"convert", dump, "--match="}, `--match "": an empty value is not allowed`},
		{[]string{"convert", dump, "--type", ""}, `--type "": an empty value is not allowed`},
		{[]string{"convert", dump, "--type", "hash,"}, `--type "hash,": an empty value is not allowed`},
		{[]string{"convert", dump, "--type", "hash", "--type", ""}, `--type "hash,": an empty value is not allowed`},
		{[]string{"convert", dump, "--rebase-to", ""}, `--rebase-to "": an empty value is not allowed`},
		{[]string{"convert", dump, "--manifest", ""}, `--manifest "": an empty value is not allowed`},
		{[]string{"convert", dump, "--target", ""}, `--target "": an empty value is not allowed`},
		{[]string{"convert", dump, "--rewrite", ""}, `--rewrite "": an empty value is not allowed`},
		{[]string{"import", dump, "--csv-type", ""}, `--csv-type "": an empty value is not allowed`},
		{[]string{"import", dump, "--on-duplicate", ""}, `--on-duplicate "": an empty value is not allowed`},
		{[]string{"inspect", dump, "--target", ""}, `--target "": an empty value is not allowed`},
		{[]string{"verify", dump, "--manifest", ""}, `--manifest "": an empty value is not allowed`},
		{[]string{"load", dump, "--addr", ""}, `--addr "": an empty value is not allowed`},
		{[]string{"--count", "1", "--type", ""}, `--type "": an empty value is not allowed`},
		{[]string{"--count", "1", "--base-time", ""}, `--base-time "": an empty value is not allowed`},
		{[]string{"convert", dump, "--db="}, `--db "": want whole numbers, separated by commas`},
		{[]string{"convert", dump, "--db", "1,,2"}, `--db "1,,2": want whole numbers, separated by commas`},
		{[]string{"convert", dump, "--sample", "half"}, `--sample "half": want a number`},
		{[]string{"--count", "ten"}, `--count "ten": want a whole number, 0 or more`},
	} {
		t.Run(filepath.Base(tt.args[0])+" "+tt.want, func(t *testing.T) { checkBadInput(t, tt.args, tt.want) })
	}
	// An empty key prefix is a prefix like any other: keys named by their number alone.
	out := filepath.Join(t.TempDir(), "d.rdb")
	if _, _, err := run(t, context.Background(), "--count", "2", "--key-prefix", "", "-o", out, "-q"); err != nil {
		t.Fatalf("--key-prefix '': %v", err)
	}
}
