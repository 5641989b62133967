package htmlreport_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/inspect"
	"github.com/rdbgen/rdbgen/inspect/htmlreport"
)

// page writes the page of r.
func page(t *testing.T, r *inspect.Report, o htmlreport.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := htmlreport.Write(&b, r, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	reportRe = regexp.MustCompile(`(?s)<script type="application/json" id="report">(.*?)</script>`)
	scriptRe = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	styleRe  = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
)

// TestPageEmbedsTheReport checks that the page holds the report as inspect --json has it,
// whatever its keys, AUX fields and prefixes are named: markup, a script's end, a comment's
// start. Nothing but the page's own three scripts ends a script element.
func TestPageEmbedsTheReport(t *testing.T) {
	for _, name := range []string{"user:1", hostileKey, "<!--", "a&b", "\u2028", "é\ufffd"} {
		r := &inspect.Report{
			RDBVersion: 12,
			Aux:        map[string]string{"redis-ver": name},
			Keys:       1,
			Largest:    inspect.Largest{BySize: []inspect.Key{{Key: name, Type: "string", Bytes: 10}}},
			Prefixes:   []inspect.Prefix{{Prefix: name, Keys: 1, Bytes: 10, Memory: 56}},
		}
		p := page(t, r, htmlreport.Options{Name: name})
		if n := strings.Count(p, "</script>"); n != 3 {
			t.Errorf("%q: %d ends of scripts, want 3", name, n)
		}
		m := reportRe.FindStringSubmatch(p)
		if m == nil {
			t.Fatalf("%q: no report in the page", name)
		}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if m[1] != string(want) {
			t.Errorf("%q: the page holds\n%s\nwant\n%s", name, m[1], want)
		}
		var back inspect.Report
		if err := json.Unmarshal([]byte(m[1]), &back); err != nil || !reflect.DeepEqual(&back, r) {
			t.Errorf("%q: the page's report reads back as %+v (%v)", name, back, err)
		}
		if strings.Contains(p, "<title>"+name) && strings.ContainsAny(name, "<&") {
			t.Errorf("%q: the title holds the name unescaped", name)
		}
	}
}

// TestPolicyAllowsOnlyItsOwn checks the page's Content-Security-Policy: nothing may load,
// and the hashes it allows are those of the page's script and style sheet as written, so
// that a browser runs them (and nothing else).
func TestPolicyAllowsOnlyItsOwn(t *testing.T) {
	p := page(t, &inspect.Report{}, htmlreport.Options{})
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(p)
	if m == nil || html.UnescapeString(m[1]) != htmlreport.CSP {
		t.Fatalf("the page's policy meta is %q, want %q", m, htmlreport.CSP)
	}
	if !strings.HasPrefix(htmlreport.CSP, "default-src 'none';") {
		t.Errorf("the policy does not start with default-src 'none': %s", htmlreport.CSP)
	}
	for what, re := range map[string]*regexp.Regexp{"script-src": scriptRe, "style-src": styleRe} {
		m := re.FindStringSubmatch(p)
		if m == nil {
			t.Fatalf("no %s element", what)
		}
		sum := sha256.Sum256([]byte(m[1]))
		src := what + " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !strings.Contains(htmlreport.CSP, src) {
			t.Errorf("the policy lacks %s: %s", src, htmlreport.CSP)
		}
	}
}
