package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// respFormat reads --format: resp writes the commands for the target's server instead of
// an RDB file, to one file or stdout, with no manifest.
func (j *fileJob) respFormat(c *cli.Context) error {
	switch f := c.String("format"); {
	case f != "resp":
		return fmt.Errorf("--format %q: want rdb or resp", f)
	case isCluster(c):
		return errors.New("--format resp writes one stream of commands: it does not go with --cluster-shards or --slots-from")
	case c.IsSet("manifest"):
		return errors.New("--format resp writes no manifest: drop --manifest")
	}
	v, err := resp.TargetVersion(j.opts.Encoder.Target)
	if err != nil {
		return err
	}
	// A stream that commands cannot rebuild goes as RESTORE, its payload in the target's
	// RDB version (or --rdb-version).
	j.resp = &rdbgen.RESPOptions{Commands: resp.Options{Server: v, RDBVersion: j.caps.RDBVersion,
		DropLostPending: c.Bool("drop-lost-pending")}, Force: j.opts.Force}
	return nil
}

// respSummary is what a command that writes a RESP stream reports.
type respSummary struct {
	Output        string            `json:"output"`
	Format        string            `json:"format"`
	Keys          uint64            `json:"keys"`
	Expires       uint64            `json:"expires"`
	Members       uint64            `json:"members,omitempty"`
	Commands      uint64            `json:"commands"`
	Bytes         int64             `json:"bytes"`
	Seconds       float64           `json:"seconds"`
	KeysPerSecond float64           `json:"keys_per_second"`
	Target        string            `json:"target"`
	Streams       resp.StreamCounts `json:"streams,omitzero"`
	importCounts                    // imports only
}

// writeRESP writes the commands of src to the output, and returns the function that reports
// the run.
func (j *fileJob) writeRESP(c *cli.Context, src record.Source, progress func(record.Progress)) (func(importCounts, string) error, error) {
	opts := *j.resp
	opts.Progress = progress
	var res rdbgen.RESPResult
	var err error
	if j.out == "-" {
		res, err = rdbgen.WriteRESP(c.Context, j.stdout, src, opts)
	} else {
		res, err = rdbgen.WriteRESPFile(c.Context, j.out, src, opts)
	}
	if err != nil {
		return nil, err
	}
	// The server the commands are for: the target named, else the default one.
	target := j.opts.Encoder.Target
	if t, err := encoder.LookupTarget(target); err == nil {
		target = t.Name
	}
	return func(ic importCounts, extra string) error {
		st := res.Stats
		if n := res.Modules.AuxDropped; n > 0 {
			ic.ModuleAuxDropped = n
			extra += functionCounts{ModuleAuxDropped: n}.suffix("")
		}
		sum := respSummary{
			Output: j.out, Format: "resp", Keys: st.Keys, Expires: st.Expires, Members: st.Members,
			Commands: res.Commands, Bytes: st.Bytes, Seconds: res.Duration.Seconds(),
			KeysPerSecond: perSecond(st.Keys, res.Duration), Target: target, importCounts: ic,
			Streams: res.Streams,
		}
		switch {
		case j.asJSON:
			return printJSON(j.results, sum)
		case j.quiet:
			return nil
		}
		_, err := fmt.Fprintf(j.results, "wrote %d keys (%d with TTL) as %d commands to %s: %s in %.2fs, %.0f keys/s (RESP for %s)%s\n",
			sum.Keys, sum.Expires, sum.Commands, sum.Output, humanBytes(sum.Bytes), sum.Seconds, sum.KeysPerSecond, sum.Target, extra)
		if note := streamsNote(sum.Streams); note != "" && err == nil {
			_, err = fmt.Fprint(j.results, note)
		}
		return err
	}, nil
}
