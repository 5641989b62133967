package verify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// File verifies the RDB file at path: offline, then, unless opts.Offline, on a server
// started on it with [server.Start] (see the package documentation). The file is only read.
//
// A file that fails the offline stage is not loaded. A server that refuses the file fails
// the verification with the server's own reason, as in "redis refused dump.rdb: Can't
// handle RDB format version 12". The returned error means the file could not be verified
// (it cannot be read, no server could be started...), and then the Report is nil, except
// when only the server's shutdown failed after a complete check: then File returns both.
func File(ctx context.Context, path string, opts Options) (*Report, error) {
	var e expectation
	if opts.Manifest != nil {
		var err error
		if e, err = newExpectation(opts.Manifest); err != nil {
			return nil, err
		}
	}
	ms := opts.newMismatches()
	fr, err := checkFile(ctx, path, opts, e, ms)
	if err != nil {
		return nil, err
	}
	if opts.For != nil {
		checkService(*opts.For, cmp.Or(opts.name, path), fr, ms)
	}
	rep := &Report{File: fr}
	if ms.count == 0 && !opts.Offline {
		rep.NotLoaded = modulesNotLoaded(fr, opts.Server.Args)
	}
	if ms.count > 0 || opts.Offline || rep.NotLoaded != "" {
		ms.finish(rep)
		return rep, nil
	}

	so := opts.Server
	maxDB := 0
	for db := range fr.DBs {
		maxDB = max(maxDB, db)
	}
	so.Args = server.WithDatabases(so.Args, maxDB) // a file of db 16 or above needs more databases
	so.Progress = func(p record.Progress) {
		p.Stage = string(StageLoad)
		opts.progress(p)
	}
	loadMS := time.Now().UnixMilli()
	inst, err := server.Start(ctx, path, so)
	if errors.Is(err, server.ErrLoadRefused) {
		got := err.Error()
		if strings.Contains(got, "Can't handle RDB format version") { // the file is sound: the server is too old
			got += fmt.Sprintf("; give a server that loads RDB %d (--redis-server), or check the file alone (--backend offline)", fr.RDBVersion)
		}
		ms.add(Mismatch{Stage: StageLoad, Got: got})
		ms.finish(rep)
		return rep, nil
	}
	if err != nil {
		return nil, err
	}
	rep.Load = &LoadReport{
		Backend:       string(inst.Backend),
		Container:     inst.Container,
		Addr:          inst.Addr,
		Seconds:       inst.LoadDuration.Seconds(),
		ServerSeconds: inst.ServerLoadDuration.Seconds(),
	}

	if opts.Manifest == nil || len(e.parts) == 0 && e.shard == nil {
		// No manifest, or one that only counts (an import's, a conversion's), which the
		// offline stage found the file holds: the server holds the file's keys less those
		// expired, which it drops as it loads the file.
		e = fileExpectation(fr, loadMS)
	}
	rep.Server, err = checkServer(ctx, &redis.Options{Addr: inst.Addr}, e, opts, ms)
	closeErr := inst.Close(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}
	ms.finish(rep)
	if closeErr != nil {
		return rep, fmt.Errorf("stop redis: %w", closeErr)
	}
	return rep, nil
}

// modulesNotLoaded returns why a server is not started on the file of fr, which holds module
// data, unless args load a module; "" when the file holds none.
func modulesNotLoaded(fr *FileReport, args []string) string {
	if len(fr.Modules) == 0 && len(fr.ModuleAux) == 0 || slices.Contains(args, "--loadmodule") {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(fr.Modules)) {
		parts = append(parts, fmt.Sprintf("%d %s", fr.Modules[name], name))
	}
	for _, name := range slices.Sorted(maps.Keys(fr.ModuleAux)) {
		parts = append(parts, fmt.Sprintf("AUX data of %s", name))
	}
	return fmt.Sprintf("the file holds module data (%s), which a server loads only with its module; checked offline only",
		strings.Join(parts, ", "))
}
