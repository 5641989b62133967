package summary

import (
	"encoding/json"
	"io"
)

// Print writes sum to w as a command ends: as indented JSON with asJSON (which wins over
// quiet), nothing when quiet, else as write writes it for people.
func Print(w io.Writer, sum any, asJSON, quiet bool, write func(io.Writer) error) error {
	switch {
	case asJSON:
		return JSON(w, sum)
	case quiet:
		return nil
	}
	return write(w)
}

// Text returns the write of Print that writes s.
func Text(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// JSON writes v as indented JSON.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
