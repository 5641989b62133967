package main

import (
	"context"
	"strings"
	"testing"
)

// TestUsageErrorsAreOneLine checks that a bad flag on any command gives one line and no help
// text, at every depth of the command tree.
func TestUsageErrorsAreOneLine(t *testing.T) {
	var paths [][]string
	app := newApp(nil, nil)
	for _, c := range app.Commands {
		paths = append(paths, []string{c.Name})
		for _, sub := range c.Subcommands {
			paths = append(paths, []string{c.Name, sub.Name})
		}
	}
	paths = append(paths, nil) // the root command
	for _, path := range paths {
		t.Run(strings.Join(append([]string{"rdbgen"}, path...), " "), func(t *testing.T) {
			stdout, stderr, err := run(t, context.Background(), append(path, "--no-such-flag")...)
			if err == nil || !strings.Contains(err.Error(), "flag provided but not defined: -no-such-flag") {
				t.Fatalf("got %v", err)
			}
			if stdout != "" || stderr != "" {
				t.Fatalf("printed help: stdout %q stderr %q", stdout, stderr)
			}
		})
	}
}
