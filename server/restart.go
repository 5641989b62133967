package server

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"
)

// ErrAppendOnly reports an existing container whose server has appendonly
// on: started again, it would load its append-only file and ignore the dump
// file, so Start leaves it alone.
var ErrAppendOnly = errors.New("appendonly is on: the server would load its AOF, not the dump file")

// The states an existing container can be left in when a restart fails.
const (
	stateOld               = "left as it was"
	stateStopped           = "left stopped with its old data"
	statePartial           = "left stopped; its dump file may be partly replaced"
	stateNewFile           = "left stopped with the new dump file in place"
	stateLoading           = "left running, loading the new data"
	stateRefused           = "left stopped: it refused the new dump file, which is in place"
	stateRefusedRestarting = "left with the new dump file, which it refused, in place; it may be restarting on it"
	stateStarting          = "left starting on the new dump file"
)

// serverFiles is where a container's server keeps its data.
type serverFiles struct {
	dir        string // data directory, absolute in the container
	dbfilename string
	appendonly bool
}

// restartContainer restarts the existing container opts.Container on the dump
// file at abs:
//
//  1. it reads the server's data directory, file name and appendonly setting
//     (CONFIG GET when the server runs, else its command line);
//  2. it stops the server with SHUTDOWN NOSAVE, so that it saves nothing,
//     then "docker stop", which waits for the container to stop and keeps a
//     restart policy from starting it again;
//  3. it copies the file into the data directory with "docker cp", with mode
//     0644 so that the server reads it whatever user it runs as;
//  4. it starts the container, which keeps its name and settings, and waits
//     for the load.
//
// Limits: a server with appendonly on is refused ([ErrAppendOnly]); a server
// that needs a password cannot be reached; a stopped container's settings are
// read from its command line only, not from a configuration file.
func restartContainer(ctx context.Context, abs string, opts Options) (*Instance, error) {
	d := newDocker(opts.DockerHost)
	name := opts.Container
	dump := filepath.Base(abs)
	fail := func(state string, err error) error {
		return fmt.Errorf("restart container %s: %w (container %s)", name, err, state)
	}

	ci, err := d.inspect(ctx, name)
	if err != nil {
		return nil, fail(stateOld, err)
	}
	files := serverFiles{
		dir:        ci.arg("dir", ci.Config.WorkingDir),
		dbfilename: ci.arg("dbfilename", "dump.rdb"),
		appendonly: ci.arg("appendonly", "no") == "yes",
	}
	port := ci.arg("port", "6379")
	if ci.State.Running {
		addr, err := ci.addr(port)
		if err != nil {
			return nil, fail(stateOld, err)
		}
		if files, err = readServerFiles(ctx, addr); err != nil {
			return nil, fail(stateOld, err)
		}
		if files.appendonly {
			return nil, fail(stateOld, ErrAppendOnly)
		}
		c := newPollClient(addr)
		err = c.ShutdownNoSave(ctx).Err()
		c.Close()
		if err != nil {
			return nil, fail(stateOld, fmt.Errorf("shutdown nosave: %w", err))
		}
	} else if files.appendonly {
		return nil, fail(stateOld, ErrAppendOnly)
	}
	if !path.IsAbs(files.dir) {
		files.dir = path.Join("/", ci.Config.WorkingDir, files.dir)
	}
	if _, err := d.run(ctx, nil, "stop", name); err != nil {
		return nil, fail("in an unknown state: it was sent SHUTDOWN NOSAVE", err)
	}

	if err := copyDump(ctx, d, name, abs, files); err != nil {
		return nil, fail(statePartial, err)
	}

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
	if err := inst.waitLoaded(ctx, dump, launched, opts); err != nil {
		c.stop()
		if errors.Is(err, ErrLoadRefused) {
			// A restart policy would start it again and again on the file.
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), removeTimeout)
			defer cancel()
			if _, stopErr := d.run(stopCtx, nil, "stop", name); stopErr != nil {
				return nil, fail(stateRefusedRestarting, errors.Join(err, stopErr))
			}
			return nil, fail(stateRefused, err)
		}
		return nil, fail(stateLoading, err)
	}
	return inst, nil
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
	return serverFiles{dir: m["dir"], dbfilename: m["dbfilename"], appendonly: m["appendonly"] == "yes"}, nil
}

// copyDump copies the dump file into the stopped container as
// files.dir/files.dbfilename, through a tar stream, which sets its name
// and its mode 0644 whatever the local file's are.
func copyDump(ctx context.Context, d docker, container, abs string, files serverFiles) error {
	f, err := os.Open(abs)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := tw.WriteHeader(&tar.Header{
			Typeflag: tar.TypeReg,
			Name:     files.dbfilename,
			Size:     fi.Size(),
			Mode:     0o644,
			ModTime:  fi.ModTime(),
		})
		if err == nil {
			_, err = io.Copy(tw, f)
		}
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	_, err = d.run(ctx, pr, "cp", "-", container+":"+files.dir)
	pr.Close()
	return err
}

// dockerTime formats t for "docker logs --since": Unix seconds with a
// fraction.
func dockerTime(t time.Time) string {
	return strconv.FormatInt(t.Unix(), 10) + "." + fmt.Sprintf("%09d", t.Nanosecond())
}
