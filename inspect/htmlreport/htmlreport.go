// Package htmlreport writes an inspect.Report as one self-contained HTML page: the report's
// JSON (as inspect --json prints it) embedded in the page, and a script and a style sheet of
// our own that render it, with inline SVG, into the used_memory estimate, a treemap of memory
// by key prefix to click into, memory and keys by type and encoding, the largest keys and an
// expiry histogram. The page loads nothing: its Content-Security-Policy allows no source but
// its own script and style, by their hashes.
//
// The page holds the report, never the keys: its size does not grow with the dump's.
package htmlreport

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"

	"github.com/rdbgen/rdbgen/inspect"
)

var (
	//go:embed page.html
	pageHTML string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

var page = template.Must(template.New("page").Parse(pageHTML))

// Options describe the page.
type Options struct {
	// Name is the inspected file's name, shown as the page's title.
	Name string
	// Separator splits a key prefix into the levels of the treemap ("user:42:" is "user:"
	// then "42:"); default ":".
	Separator string
	// Depth is the number of parts the report's prefixes keep (inspect.PrefixOptions.Depth),
	// shown beside the treemap; default 1.
	Depth int
}

// settings are what the script needs beside the report.
type settings struct {
	Name      string `json:"name"`
	Separator string `json:"separator"`
	Depth     int    `json:"depth"`
}

// pageData fills page.html.
type pageData struct {
	Title    string
	CSP      string
	CSS      template.CSS
	JS       template.JS
	Report   template.JS // JSON, with <, > and & escaped: it cannot end its script element
	Settings template.JS
}

// Write writes the page of r to w.
func Write(w io.Writer, r *inspect.Report, o Options) error {
	if o.Separator == "" {
		o.Separator = ":"
	}
	o.Depth = max(o.Depth, 1)
	rep, err := json.Marshal(r) // escapes <, > and & as \u003c…: safe inside <script>
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	set, err := json.Marshal(settings{o.Name, o.Separator, o.Depth})
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	title := "rdbgen inspect"
	if o.Name != "" {
		title = o.Name + " — " + title
	}
	var b bytes.Buffer
	err = page.Execute(&b, pageData{
		Title:    title,
		CSP:      CSP,
		CSS:      template.CSS(pageCSS),
		JS:       template.JS(pageJS),
		Report:   template.JS(rep),
		Settings: template.JS(set),
	})
	if err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// CSP is the page's Content-Security-Policy: nothing may load, and only the page's own
// script and style sheet, named by their SHA-256, may run or apply.
var CSP = fmt.Sprintf("default-src 'none'; script-src '%s'; style-src '%s'; img-src data:; base-uri 'none'; form-action 'none'",
	hash(pageJS), hash(pageCSS))

// hash returns the CSP source of an inline element's text.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
