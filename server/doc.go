// Package server starts a real Redis on an RDB snapshot file, waits until the
// dataset is loaded, and tears the server down again.
//
// [Start] runs the server as a child process ([BackendProcess]), in a fresh
// docker container ([BackendDocker]), or restarts an existing container on
// the file ([Options.Container]). The server never writes the dump file: it
// runs with appendonly off and no save points, and the file is reached
// through a symbolic link (process) or a read-only mount (fresh container).
//
// A typical use:
//
//	inst, err := server.Start(ctx, "dump.rdb", server.Options{})
//	if err != nil {
//		return err // "redis refused dump.rdb: Can't handle RDB format version 12"
//	}
//	defer inst.Close(ctx)
//	n, err := inst.Client().DBSize(ctx).Result()
//
// The package never prints: progress goes to [Options.Progress].
package server
