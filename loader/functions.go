package loader

import (
	"context"
	"fmt"
	"strings"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
	"github.com/redis/go-redis/v9"
)

// A functionLoader is the sink a load writes its source into: records go on to its Sink
// (the commands of one server, or the router of a cluster), and each function library is
// loaded at once, by FUNCTION LOAD through a client of its own, into every server of addrs
// (every primary of a cluster needs the libraries), before any record that follows it. A
// dump holds its libraries before its keys, so they are loaded first, whatever the method.
type functionLoader struct {
	record.Pass
	l       *load
	ctx     context.Context
	version resp.Version
	addrs   []string
	loaded  []loadedLibrary // the libraries added, for a rollback
	modules map[uint64]bool // the module types checked on every server (modules.go)
}

// A loadedLibrary is a library this load added to the server at addr.
type loadedLibrary struct{ addr, name string }

// withFunctions returns next wrapped to load function libraries into the servers of addrs,
// of version.
func (l *load) withFunctions(ctx context.Context, next record.Sink, version resp.Version, addrs []string) *functionLoader {
	return &functionLoader{Pass: record.Pass{Next: next}, l: l, ctx: ctx, version: version, addrs: addrs}
}

// do runs one command on the server at addr, through a client of its own: libraries are few.
func (f *functionLoader) do(addr string, args ...any) error {
	c := redis.NewClient(f.l.redisOptions(addr))
	defer c.Close()
	return c.Do(f.ctx, args...).Err()
}

// WriteFunction loads a function library into every server. A server before 7.0, or one
// that has a library of the same name (unless Options.ReplaceFunctions), is an error naming
// the library and the server; the libraries this load added before are deleted again.
func (f *functionLoader) WriteFunction(code []byte) error {
	label := record.LibraryLabel(code)
	if !f.version.Has(rdb.Functions) {
		return fmt.Errorf("%s: %w: %s is Redis %s, and function libraries need %s or later; leave them out with --drop-functions",
			label, resp.ErrServerTooOld, f.l.o.Addr, f.version, resp.FirstVersion(rdb.Functions))
	}
	load := resp.FunctionLoad(code, f.l.o.ReplaceFunctions)
	args := make([]any, len(load))
	for i, a := range load {
		args[i] = a
	}
	for _, addr := range f.addrs {
		err := f.do(addr, args...)
		switch {
		case err != nil && strings.Contains(err.Error(), "already exists"):
			f.rollback()
			return fmt.Errorf("%s: %s already has a library of that name: replace it with --replace-functions, or leave the input's out with --drop-functions", label, addr)
		case err != nil:
			f.rollback()
			return fmt.Errorf("%s: FUNCTION LOAD into %s: %w", label, addr, err)
		}
		if name, err := record.LibraryName(code); err == nil && !f.l.o.ReplaceFunctions {
			f.loaded = append(f.loaded, loadedLibrary{addr, name})
		}
	}
	f.l.functions++
	return nil
}

// rollback deletes the libraries this load added, so that a load stopped by a library
// leaves none behind. Under ReplaceFunctions none are noted: a library replaced cannot be
// put back.
func (f *functionLoader) rollback() {
	for _, lib := range f.loaded {
		_ = f.do(lib.addr, "FUNCTION", "DELETE", lib.name) // best effort: the error that stopped the load is reported
	}
	f.loaded = nil
}
