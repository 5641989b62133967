package image

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/rdbgen/rdbgen/internal/human"
)

// A Summary is what rdbgen image reports: the image built (or the build context written)
// and what it holds.
type Summary struct {
	Tag        string   `json:"tag,omitempty"`
	ID         string   `json:"id,omitempty"`
	Context    string   `json:"context,omitempty"`
	Dump       string   `json:"dump"`
	Base       string   `json:"base"`
	Server     string   `json:"server"`
	RDBVersion int      `json:"rdb_version"`
	Keys       *int64   `json:"keys,omitempty"`
	Bytes      int64    `json:"bytes"`
	Command    []string `json:"command"`
	// ExpiryFromStart tells whether the image rebases expiries at start.
	ExpiryFromStart bool `json:"expiry_from_start"`
	// Libraries are the files on this machine carried for a dynamically linked rdbgen.
	Libraries []string `json:"libraries,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
	Seconds   float64  `json:"seconds,omitempty"`
}

// WriteText writes s for people, as rdbgen image prints it.
func (s Summary) WriteText(w io.Writer) error {
	keys := ""
	if s.Keys != nil {
		keys = fmt.Sprintf(", %d keys", *s.Keys)
	}
	what := fmt.Sprintf("from %s (RDB %d%s, %s) on %s, which runs %s", s.Dump, s.RDBVersion, keys, human.Bytes(s.Bytes), s.Base, s.Server)
	if s.ExpiryFromStart {
		what += ", expiries counted from the container's start"
		if len(s.Libraries) > 0 {
			what += " (rdbgen is linked dynamically: the image carries its loader and libraries from this machine, " + strings.Join(s.Libraries, ", ") + ")"
		}
	}
	if s.Context != "" {
		_, err := fmt.Fprintf(w, "wrote %s and %s %s\nbuild it with: docker build -t TAG %s\n",
			filepath.Join(s.Context, "Dockerfile"), filepath.Join(s.Context, DumpName), what, s.Context)
		return err
	}
	_, err := fmt.Fprintf(w, "built %s (%.19s) in %.1fs %s\nrun it with: docker run -p 6379:6379 %s\n", s.Tag, s.ID, s.Seconds, what, s.Tag)
	return err
}

// newSummary returns the summary of plan p for the dump at path; Make adds the image's
// tag, id and build time, or the context directory.
func newSummary(dump string, p *Plan) Summary {
	s := Summary{Dump: dump, Base: p.Base, Server: p.Server.String(), RDBVersion: p.RDBVersion, Bytes: p.DumpSize,
		Command: p.Command, ExpiryFromStart: p.Binary != "", Warnings: p.Warnings}
	for _, l := range p.Libraries {
		s.Libraries = append(s.Libraries, l.Path)
	}
	if p.Keys >= 0 {
		s.Keys = &p.Keys
	}
	return s
}
