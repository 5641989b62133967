package server

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The states an existing container can be left in when a restart fails.
const (
	stateOld               = "left as it was"
	stateStopped           = "left stopped with its old data"
	stateUnknown           = "in an unknown state: it was sent SHUTDOWN NOSAVE"
	statePartial           = "left stopped; its files may be partly replaced"
	stateNewFile           = "left stopped with the new dump file in place"
	stateStarting          = "left starting on the new dump file"
	stateLoading           = "left running, loading the new data"
	stateRefused           = "left stopped: it refused the new dump file, which is in place"
	stateRefusedRestarting = "left with the new dump file, which it refused, in place; it may be restarting on it"
	stateAOF               = "left running on its old append-only file, with the new dump file in place"
)

// serverFiles is where a container's server keeps its data.
type serverFiles struct {
	dir        string // data directory, absolute in the container
	dbfilename string
	appendonly bool
	aof        aofDir // the AOF layout of Redis 7 and later; zero for older
}

// restartContainer restarts the existing container opts.Container on the dump
// file at abs; see [Options.Container]. Its errors tell the state the
// container is left in.
func restartContainer(ctx context.Context, abs string, opts Options) (*Instance, error) {
	d := newDocker(opts.DockerHost)
	name := opts.Container
	fail := func(state string, err error) error {
		return fmt.Errorf("restart container %s: %w (container %s)", name, err, state)
	}

	// Where does the server keep its data? Ask it, if it runs.
	ci, err := d.inspect(ctx, name)
	if err != nil {
		return nil, fail(stateOld, err)
	}
	port := ci.arg("port", "6379")
	files := ci.serverFiles()
	if ci.State.Running {
		addr, err := ci.addr(port)
		if err != nil {
			return nil, fail(stateOld, err)
		}
		if files, err = readServerFiles(ctx, addr); err != nil {
			return nil, fail(stateOld, err)
		}
	}
	if !path.IsAbs(files.dir) {
		files.dir = path.Join("/", ci.Config.WorkingDir, files.dir)
	}
	if files.appendonly && files.aof == (aofDir{}) {
		return nil, fail(stateOld, fmt.Errorf("%w, with the single-file AOF of servers before Redis 7.0", ErrAppendOnly))
	}

	// Stop it without a save. docker stop then waits until it has stopped
	// and keeps a restart policy from starting it again.
	stopped := stateOld
	if ci.State.Running {
		addr, _ := ci.addr(port)
		c := newPollClient(addr)
		err := c.ShutdownNoSave(ctx).Err()
		c.Close()
		if err != nil {
			return nil, fail(stateOld, fmt.Errorf("shutdown nosave: %w", err))
		}
		stopped = stateStopped
	}
	if _, err := d.run(ctx, nil, "stop", name); err != nil {
		return nil, fail(stateUnknown, err)
	}

	// Put the file in place.
	entries := []fileEntry{{name: files.dbfilename, src: abs}}
	if files.appendonly {
		entries, err = takeOverAOF(ctx, d, name, files.dir, abs, files.aof)
		if err != nil {
			return nil, fail(stopped, err)
		}
	}
	if err := d.copyInto(ctx, name, files.dir, entries); err != nil {
		return nil, fail(statePartial, err)
	}

	// Start it again and wait for the load.
	since := dockerTime(time.Now())
	launched := time.Now()
	if _, err := d.run(ctx, nil, "start", name); err != nil {
		return nil, fail(stateNewFile, err)
	}
	c := &container{docker: d, name: name, since: since}
	c.done, c.status, c.stop = d.waitExit(name)
	// An ephemeral published port changes with every start: read it again.
	if ci, err = d.inspect(ctx, name); err == nil {
		c.addr, err = ci.addr(port)
	}
	if err != nil {
		c.stop()
		return nil, fail(stateStarting, err)
	}
	inst := &Instance{Addr: c.addr, Backend: BackendDocker, Container: name, r: c}
	dump := filepath.Base(abs)
	if err := inst.waitLoaded(ctx, dump, launched, opts); err != nil {
		c.stop()
		if !errors.Is(err, ErrLoadRefused) {
			return nil, fail(stateLoading, err)
		}
		// A restart policy would start it again and again on the file.
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), removeTimeout)
		defer cancel()
		if _, stopErr := d.run(stopCtx, nil, "stop", name); stopErr != nil {
			return nil, fail(stateRefusedRestarting, errors.Join(err, stopErr))
		}
		return nil, fail(stateRefused, err)
	}
	// A configuration file can turn appendonly on behind the command line
	// of a stopped container.
	if log, err := c.log(ctx); err == nil && !files.appendonly && strings.Contains(log, "DB loaded from append only file") {
		c.stop()
		return nil, fail(stateAOF, fmt.Errorf("%w: the server loaded its append-only file, not the dump file", ErrAppendOnly))
	}
	return inst, nil
}

// serverFiles reads where the server keeps its data from the container's
// command line, with the server's defaults. It cannot see a configuration
// file's settings.
func (ci *containerInfo) serverFiles() serverFiles {
	return serverFiles{
		dir:        ci.arg("dir", ci.Config.WorkingDir),
		dbfilename: ci.arg("dbfilename", "dump.rdb"),
		appendonly: ci.arg("appendonly", "no") == "yes",
		aof: aofDir{
			dir:      ci.arg("appenddirname", "appendonlydir"),
			filename: ci.arg("appendfilename", "appendonly.aof"),
		},
	}
}

// readServerFiles asks a running server where it keeps its data.
func readServerFiles(ctx context.Context, addr string) (serverFiles, error) {
	c := newPollClient(addr)
	defer c.Close()
	m, err := c.ConfigGet(ctx, "*").Result()
	if err != nil {
		return serverFiles{}, fmt.Errorf("config get: %w", err)
	}
	if m["dir"] == "" || m["dbfilename"] == "" {
		return serverFiles{}, errors.New("config get: no dir or dbfilename")
	}
	files := serverFiles{dir: m["dir"], dbfilename: m["dbfilename"], appendonly: m["appendonly"] == "yes"}
	if m["appenddirname"] != "" { // Redis 7.0 and later
		files.aof = aofDir{dir: m["appenddirname"], filename: m["appendfilename"]}
	}
	return files, nil
}

// dockerTime formats t for "docker logs --since": Unix seconds with a
// fraction.
func dockerTime(t time.Time) string {
	return strconv.FormatInt(t.Unix(), 10) + "." + fmt.Sprintf("%09d", t.Nanosecond())
}
