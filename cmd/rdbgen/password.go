package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
)

// passwordFileFlag is --password-file, of every command that connects to a server: the
// password kept out of the command line, as Kubernetes mounts a secret. category groups it
// in the help.
func passwordFileFlag(category string) cli.Flag {
	return &cli.StringFlag{Name: "password-file", Category: category, Usage: "read the server's password from this file (its first line), when the URL has none; else $REDISCLI_AUTH is read"}
}

// password returns the server's password given apart from its URL, and whether one was:
// --password-file's first line, else --password where the command has it, else
// $REDISCLI_AUTH, as redis-cli reads it. from names where it came from, for errors.
func password(c *cli.Context) (pw, from string, err error) {
	file := c.String("password-file")
	switch {
	case file != "" && c.IsSet("password"):
		return "", "", errors.New("--password and --password-file both give the password: give one")
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", "", fmt.Errorf("--password-file: %w", err)
		}
		first, _, _ := strings.Cut(string(b), "\n")
		if pw = strings.TrimSuffix(first, "\r"); pw == "" {
			return "", "", fmt.Errorf("--password-file %s: the file holds no password on its first line", file)
		}
		return pw, "--password-file", nil
	case c.IsSet("password"):
		return c.String("password"), "--password (or $REDISCLI_AUTH)", nil
	}
	return os.Getenv("REDISCLI_AUTH"), "$REDISCLI_AUTH", nil
}
