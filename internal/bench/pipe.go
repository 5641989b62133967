package bench

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/rdbgen/rdbgen/resp"
)

// CLIPipe is the name of the row that feeds the source's RESP stream (package resp) to
// redis-cli --pipe, the way Redis's documentation loads a dataset. The stream is written
// once, before the row is first timed; the row times redis-cli alone.
const CLIPipe = "redis-cli-pipe"

// pipe runs the redis-cli --pipe row once, against a fresh empty server.
func (b *bencher) pipe(ctx context.Context, p benchRun) (measurement, error) {
	b.progress(p, StageStart, 0)
	inst, err := b.start(ctx, b.empty)
	if err != nil {
		return measurement{}, err
	}
	defer inst.Close(context.WithoutCancel(ctx))
	cli := b.o.RedisCLI
	if cli == "" {
		if cli, err = exec.LookPath("redis-cli"); err != nil {
			return measurement{err: fmt.Errorf("redis-cli not found: %w", err)}, nil
		}
	}
	if b.resp == "" {
		if err := b.writeRESP(ctx); err != nil {
			return measurement{}, err
		}
	}
	in, err := os.Open(b.resp)
	if err != nil {
		return measurement{}, fmt.Errorf("bench: %w", err)
	}
	defer in.Close()
	host, port, err := net.SplitHostPort(inst.Addr)
	if err != nil {
		return measurement{}, fmt.Errorf("bench: %w", err)
	}
	cmd := exec.CommandContext(ctx, cli, "-h", host, "-p", port, "--pipe")
	cmd.Stdin = in
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	b.progress(p, StageLoad, 0)
	start := time.Now()
	err = cmd.Run()
	m := measurement{seconds: time.Since(start).Seconds()}
	if ctx.Err() != nil {
		return measurement{}, ctx.Err()
	}
	if err != nil {
		m.err = fmt.Errorf("redis-cli --pipe: %v: %s", err, pipeError(out.Bytes()))
	}
	n, err := b.check(ctx, inst)
	m.dbsize = n
	if m.err == nil {
		m.err = err
	}
	return m, nil
}

// writeRESP writes the source's commands, for the servers' version, into the bench's
// directory.
func (b *bencher) writeRESP(ctx context.Context) error {
	path := filepath.Join(b.dir, "data.resp")
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer f.Close()
	w, err := resp.NewWriter(f, resp.Options{Server: b.version})
	if err == nil {
		err = b.src.WriteTo(ctx, w)
	}
	if err == nil {
		err = w.Close()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return fmt.Errorf("bench: write %s: %w", path, err)
	}
	b.resp = path
	return nil
}

// pipeError returns what redis-cli --pipe said about a failure: the first error reply it
// printed, and its count of errors and replies.
func pipeError(out []byte) string {
	var first, counts string
	for line := range bytes.Lines(out) {
		line = bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(line, []byte("errors: ")):
			counts = string(line)
		case first == "" && len(line) > 0 && !bytes.HasPrefix(line, []byte("All data transferred")) &&
			!bytes.HasPrefix(line, []byte("Last reply received")):
			first = string(line)
		}
	}
	if first == "" {
		return counts
	}
	return first + " (" + counts + ")"
}
