package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/input"
	"github.com/rdbgen/rdbgen/live"
)

// liveFlagNames are the flags of a live server's input.
var liveFlagNames = []string{"via", "tls-ca", "tls-cert", "tls-key", "insecure"}

// liveFlags are the flags of the commands that read a dump, for an input that is a live
// server: redis://[user:password@]host[:port][/db] or rediss://….
func liveFlags() []cli.Flag {
	const cat = "Live server (input redis://[user:password@]host[:port][/db], rediss://… for TLS)"
	return []cli.Flag{
		&cli.StringFlag{Name: "via", Value: string(live.Sync), Category: cat,
			Usage: "sync: as a replica, a point-in-time snapshot (falls back to scan, saying so, when the server refuses SYNC and PSYNC); scan: SCAN and DUMP, key by key, not a point-in-time snapshot"},
		&cli.StringFlag{Name: "tls-ca", Category: cat, Usage: "PEM file of the authorities that sign the server's certificate (default: the system's)"},
		&cli.StringFlag{Name: "tls-cert", Category: cat, Usage: "PEM file of a client certificate, for a server that asks for one"},
		&cli.StringFlag{Name: "tls-key", Category: cat, Usage: "PEM file of the client certificate's key"},
		&cli.BoolFlag{Name: "insecure", Category: cat, Usage: "do not check the server's certificate"},
	}
}

// liveOptions returns the options of a live input from the flags; for an input that is no
// live server, an error if any of them is given.
func liveOptions(c *cli.Context, input string) (live.Options, error) {
	if !live.IsURL(input) {
		for _, name := range liveFlagNames {
			if c.IsSet(name) {
				return live.Options{}, fmt.Errorf("--%s applies to a live server's input (redis://…, rediss://…), not to %s", name, input)
			}
		}
		return live.Options{}, nil
	}
	var errw io.Writer = c.App.ErrWriter
	if c.Bool("quiet") {
		errw = io.Discard
	}
	return live.Options{
		Via:    live.Via(c.String("via")),
		TLS:    live.TLS{CA: c.String("tls-ca"), Cert: c.String("tls-cert"), Key: c.String("tls-key"), Insecure: c.Bool("insecure")},
		Notice: func(msg string) { fmt.Fprintf(errw, "rdbgen: %s\n", msg) },
	}, nil
}

// snapshot returns the snapshot of the live server in, as a replica receives it: inspect
// reads a whole RDB file, which a scan does not give.
func snapshot(c *cli.Context, in *input.Input) (io.ReadCloser, error) {
	if in.Server.Address().DB >= 0 {
		return nil, fmt.Errorf("%s: inspect reads every database of a server: leave the database out of the URL", in.Name)
	}
	if live.Via(c.String("via")) == live.Scan {
		return nil, errors.New("--via scan: inspect reads the server's snapshot (--via sync)")
	}
	sn, err := in.Server.Snapshot(c.Context)
	if errors.Is(err, live.ErrRefused) {
		return nil, fmt.Errorf("%w: inspect reads the server's snapshot, which a scan does not give", err)
	}
	return sn, err
}
