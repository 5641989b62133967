package rewrite

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeExample parses the rules file of the docs' Rewrite page (docs/rewrite.md), and the
// error the page shows for a typo in it.
func TestReadmeExample(t *testing.T) {
	b, err := os.ReadFile("../docs/rewrite.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "# Rewrite")
	_, block, ok2 := strings.Cut(sec, "```yaml\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("no yaml block in docs/rewrite.md")
	}
	if _, err := Parse("rules.yaml", []byte(block)); err != nil {
		t.Fatalf("the rules of docs/rewrite.md: %v", err)
	}
	_, err = Parse("rules.yaml", []byte(strings.Replace(block, "{fake: email}", "{fake: emial}", 1)))
	if err == nil {
		t.Fatal("no error for a typo")
	}
	shown := strings.TrimSuffix(err.Error()[:strings.Index(err.Error(), "(known: ")], " ")
	if !strings.Contains(sec, "`"+shown+" (known: …)`") {
		t.Errorf("docs/rewrite.md does not show the error %q", shown)
	}
}
