package loader

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/rdbsink"
	"github.com/rdbgen/rdbgen/record"
)

// Module data. A module value goes to the server as RESTORE of its payload (package resp),
// which a server without the module answers with a bare "Bad data format": before the
// first value of each module type, the functionLoader restores it under a name of its own
// into every server and deletes it again, so that a missing module is an error naming it
// before any of its keys is sent. Module AUX data has no command: an error naming the
// module, or, with Options.DropModuleAux, left out and counted.

// ErrModuleNotLoaded is wrapped by the error for a module value the server cannot load.
var ErrModuleNotLoaded = errors.New("loader: the server does not have the module loaded")

// Begin checks, at the first value of each module type, that every server loads it; every
// key then goes on.
func (f *functionLoader) Begin(h *record.Header) error {
	if h.Type == record.Module && !f.modules[h.ModuleID] {
		if err := f.probeModule(h); err != nil {
			return err
		}
		if f.modules == nil {
			f.modules = map[uint64]bool{}
		}
		f.modules[h.ModuleID] = true
	}
	return f.Next.Begin(h)
}

// probeModule restores the value h opens under a temporary name into every server, and
// deletes it. A server of a cluster that does not own the name's slot answers MOVED: it is
// not checked (the value's own RESTORE will fail there, as keyError explains).
func (f *functionLoader) probeModule(h *record.Header) error {
	name := record.ModuleName(h.ModuleID)
	p, err := rdbsink.NewPayloadWriter(encoder.Options{RDBVersion: f.version.RDBVersion()}, 0)
	if err != nil {
		return fmt.Errorf("write key %q: module value of %q: %w", h.Key, name, err)
	}
	defer p.Close()
	probe := *h
	probe.ExpireAtMS = 0
	if err := p.Begin(&probe); err != nil {
		return fmt.Errorf("write key %q: %w", h.Key, err)
	}
	payload, err := p.Payload()
	if err != nil {
		return fmt.Errorf("write key %q: %w", h.Key, err)
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	temp := "rdbgen:module-probe:" + hex.EncodeToString(rnd[:])
	for _, addr := range f.addrs {
		err := f.do(addr, "RESTORE", temp, 0, payload)
		switch {
		case err == nil:
			_ = f.do(addr, "DEL", temp)
		case isMoved(err):
		case strings.Contains(err.Error(), "Bad data format"):
			return fmt.Errorf("write key %q: module type %q (encoding version %d): %w: %s answered %q to RESTORE of its value; start it with --loadmodule of the module, or leave the module's keys out first (rdbgen convert DUMP --type naming the other types -o FILE)",
				h.Key, name, record.ModuleEncVer(h.ModuleID), ErrModuleNotLoaded, addr, err)
		default:
			return fmt.Errorf("write key %q: module value of %q: RESTORE into %s: %w", h.Key, name, addr, err)
		}
	}
	return nil
}

// isMoved reports whether err is a cluster's redirection.
func isMoved(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "MOVED ") || strings.HasPrefix(msg, "ASK ")
}

// WriteModuleAux leaves a module's AUX data out, counted, under Options.DropModuleAux; it
// is otherwise an error naming the module: no command puts it into a server.
func (f *functionLoader) WriteModuleAux(a *record.ModuleAux) error {
	if f.l.o.DropModuleAux {
		f.l.moduleAuxDropped++
		return nil
	}
	return fmt.Errorf("%s: %w: no command puts module AUX data into a server; leave it out with --drop-module-aux, or convert to an RDB file the server loads at start",
		a.Label(), record.ErrModuleAuxUnsupported)
}

// The router hands module AUX data to no node: the functionLoader that wraps it takes it.
func (r *router) WriteModuleAux(a *record.ModuleAux) error {
	return record.RefuseModuleAux{}.WriteModuleAux(a)
}
