package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/internal/redistest"
)

// TestInspectHTML writes the HTML report of a real server's dump: the page holds the report
// --json --prefixes prints; an existing page is kept without --force and replaced with it;
// "-" writes the page to stdout; a damaged dump leaves no page and no temporary file; the
// flags that do not go together, and --html naming the dump itself, are one-line errors
// that leave the dump as it was.
func TestInspectHTML(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dump := filepath.Join(dir, "types.rdb")
	b, err := os.ReadFile("testdata/dumps/types.rdb")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dump, b, 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	stdout, stderr, err := run(t, ctx, "inspect", dump, "--html", page, "--depth", "2")
	if err != nil || stdout != "" || !strings.Contains(stderr, "wrote "+page) {
		t.Fatalf("inspect --html: %v, stdout %q, stderr %q", err, stdout, stderr)
	}
	jsonOut, _, err := run(t, ctx, "inspect", dump, "--json", "--prefixes", "--depth", "2")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := embedded(t, page), decodeReport(t, jsonOut); !reflect.DeepEqual(got, want) {
		t.Errorf("the page holds\n%+v\nwant, as --json --prefixes prints it,\n%+v", got, want)
	}

	sum := redistest.FileSum(t, page)
	if _, _, err := run(t, ctx, "inspect", dump, "--html", page, "-q"); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("an existing page without --force: %v, want an error naming --force", err)
	}
	if redistest.FileSum(t, page) != sum {
		t.Errorf("the existing page was changed")
	}
	if _, _, err := run(t, ctx, "inspect", dump, "--html", page, "-q", "--force", "--top", "3"); err != nil {
		t.Fatal(err)
	}
	if len(embedded(t, page).Largest.BySize) != 3 {
		t.Errorf("--force did not replace the page")
	}

	stdout, _, err = run(t, ctx, "inspect", dump, "--html", "-")
	if err != nil || !strings.HasPrefix(stdout, "<!DOCTYPE html>") || !strings.HasSuffix(stdout, "</html>\n") {
		t.Errorf("--html -: %v, stdout %.40q…", err, stdout)
	}

	damaged := filepath.Join(dir, "damaged.rdb")
	if err := os.WriteFile(damaged, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, ctx, "inspect", damaged, "--html", filepath.Join(dir, "damaged.html"), "-q"); err == nil {
		t.Errorf("a damaged dump: no error")
	}
	if got, want := dirEntries(t, dir), []string{"damaged.rdb", "report.html", "types.rdb"}; !slices.Equal(got, want) {
		t.Errorf("after a damaged dump the directory holds %v, want %v", got, want)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--html", "-", "--json"}, "both write to stdout"},
		{[]string{"--html", ""}, "an empty value is not allowed"},
		{[]string{"--force"}, "--force goes with --html"},
		{[]string{"--html", dir}, "is a directory"},
		{[]string{"--html", dump, "--force"}, "is the dump being inspected"},
	} {
		_, _, err := run(t, ctx, append([]string{"inspect", dump}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want one line with %q", c.args, err, c.want)
		}
		if got, err := os.ReadFile(dump); err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%v: the dump was changed (%v)", c.args, err)
		}
	}
}

var embeddedRe = regexp.MustCompile(`(?s)<script type="application/json" id="report">(.*?)</script>`)

// embedded returns the report the page at path holds.
func embedded(t *testing.T, path string) *inspect.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := embeddedRe.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s holds no report", path)
	}
	return decodeReport(t, string(m[1]))
}

// decodeReport decodes a report's JSON, with the time of the run left out.
func decodeReport(t *testing.T, s string) *inspect.Report {
	t.Helper()
	var r inspect.Report
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatal(err)
	}
	r.Expiry.NowMS = 0
	return &r
}
