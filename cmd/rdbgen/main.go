// Command rdbgen builds Redis datasets offline: it writes RDB snapshot files that Redis loads
// at start-up, far faster than loading the same keys through a client.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/redis/go-redis/v9/logging"
	"github.com/urfave/cli/v2"

	"github.com/rdbgen/rdbgen/internal/cliflags"
	"github.com/rdbgen/rdbgen/internal/version"
)

func main() {
	// go-redis logs a failed dial on stderr before its caller sees the error; rdbgen reports
	// every error itself, in one line.
	logging.Disable()
	// The S3 uploader logs a failed completion with the standard logger before it returns
	// the error (a conditional write that lost a race): silenced for the same reason.
	log.SetOutput(io.Discard)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cliflags.Run(ctx, newApp(os.Stdout, os.Stderr), os.Args)
	interrupted := ctx.Err() != nil
	stop()
	// diff exits 1 when the dumps differ, 2 on trouble, as diff(1); an interrupted run, 130.
	code, msg := cliflags.Status(err, interrupted)
	if msg != "" {
		fmt.Fprintf(os.Stderr, "rdbgen: %s\n", msg)
	}
	os.Exit(code)
}

// newApp wires the commands; stdout gets results and stderr diagnostics and progress.
func newApp(stdout, stderr io.Writer) *cli.App {
	gen := generateCommand()
	app := &cli.App{
		Name:      "rdbgen",
		Usage:     "build Redis datasets offline as RDB snapshot files",
		UsageText: "rdbgen --count N -o dump.rdb [options]\nrdbgen command [options]",
		Version:   version.Get().String(),
		Writer:    stdout,
		ErrWriter: stderr,
		// rdbgen's default action is generate, so that `rdbgen --count N` does the main job.
		Flags:  gen.Flags,
		Action: gen.Action,
		Commands: []*cli.Command{
			gen,
			specCommand(),
			importCommand(),
			convertCommand(),
			exportCommand(),
			inspectCommand(),
			diffCommand(),
			mergeCommand(),
			verifyCommand(),
			loadCommand(),
			benchCommand(),
			imageCommand(),
			entrypointCommand(),
			versionCommand(),
			completionCommand(),
		},
		HideHelpCommand: true,
	}
	enableCompletion(app)
	cliflags.OneLineErrors(app)
	cliflags.RefuseEmpty(app, allowEmpty)
	return app
}

// errInterrupted replaces a context error with words a user reads.
var errInterrupted = cliflags.Interrupted

// allowEmpty are the string flags whose empty value means something, and what.
var allowEmpty = map[string]string{
	"key-prefix":  "keys named by their number alone: 0, 1, ...",
	"password":    "no password, as an empty REDISCLI_AUTH",
	"docker-host": "the default Docker engine, as an empty DOCKER_HOST",
}
