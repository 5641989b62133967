package image

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Defaults of Options.
const (
	// DefaultBase is the official Redis image of the newest release rdbgen writes for.
	DefaultBase = "redis:7.4"
	// DefaultOwner is the user and group of the official images' redis user.
	DefaultOwner = "999:999"
)

// Errors callers can test for with errors.Is.
var (
	// ErrTooNew reports a dump whose RDB version the base image's server cannot load.
	ErrTooNew = errors.New("dump too new for the base image")
	// ErrUnknownBase reports a base image whose server release cannot be told; Force
	// builds anyway.
	ErrUnknownBase = errors.New("unknown base image")
	// ErrDamaged reports a dump file that the offline check of verify fails: cut short,
	// a wrong checksum, a broken structure.
	ErrDamaged = errors.New("damaged dump")
	// ErrInvalidOption reports an option that cannot work.
	ErrInvalidOption = errors.New("invalid option")
)

// Options configure Build and WriteContext. The zero value works.
type Options struct {
	// Base is the image to build on. Default DefaultBase, the official redis:7.4.
	Base string
	// Persist keeps the server's own save points, so that it saves the dataset back to
	// /data/dump.rdb as Redis does by default. Default false: the server runs with no save
	// points and appendonly off, and never writes the dump on its own.
	Persist bool
	// Owner is the "uid:gid" that owns /data/dump.rdb in the image. Default DefaultOwner,
	// the official images' redis user, so that their entrypoint has nothing to chown at
	// start-up and a persisting server can replace the file.
	Owner string
	// Args are extra server arguments added to the start command, such as "--port",
	// "7000" or "--maxmemory", "1gb". "--appendonly yes" is refused: the server would
	// ignore the dump and start empty. Default none.
	Args []string
	// ExpiryFromStart makes the image rebase the dump's expiries to the moment the container
	// starts: its entrypoint is Binary ("rdbgen entrypoint"), which rewrites /data/dump.rdb
	// with every expiry moved from the dump's creation time to now, then execs the server.
	// Default false: the expiries stay as they are, absolute, and keys whose time has passed
	// when the container starts are dropped by the server (Plan.Warnings says so).
	ExpiryFromStart bool
	// Binary is the rdbgen executable the image carries with ExpiryFromStart: a Linux
	// executable for the base image's architecture. A static one (CGO_ENABLED=0) goes alone;
	// a dynamically linked one (go build's default where cgo is on) goes with its loader and
	// the libraries it needs, found on this machine, into LibraryDir (see Plan.Libraries).
	// Required with ExpiryFromStart; ignored without.
	Binary string
	// Force builds on a base image whose server release cannot be told (see ServerOf).
	// Default false: ErrUnknownBase. A dump too new for a known base is always refused.
	Force bool
	// DockerHost is the docker engine's address, as for "docker -H". Default: the CLI's
	// own (DOCKER_HOST, else its current context).
	DockerHost string
	// Progress, if not nil, receives each line docker build prints. Default nil.
	Progress func(line string)
}

// refPattern is what an image reference may hold: no spaces, quotes or control characters
// that would break the Dockerfile's FROM line.
var refPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/:@+-]*$`)

// ownerPattern is a "uid:gid" pair of numbers.
var ownerPattern = regexp.MustCompile(`^[0-9]{1,10}:[0-9]{1,10}$`)

// withDefaults returns o with its zero fields set, or an error naming a bad field.
func (o Options) withDefaults() (Options, error) {
	if o.Base == "" {
		o.Base = DefaultBase
	}
	if o.Owner == "" {
		o.Owner = DefaultOwner
	}
	if !refPattern.MatchString(o.Base) {
		return o, fmt.Errorf("%w: base image %q is not an image reference", ErrInvalidOption, o.Base)
	}
	if !ownerPattern.MatchString(o.Owner) {
		return o, fmt.Errorf("%w: owner %q is not uid:gid", ErrInvalidOption, o.Owner)
	}
	if o.ExpiryFromStart && o.Binary == "" {
		return o, fmt.Errorf("%w: the image needs an rdbgen binary to rebase expiries at start", ErrInvalidOption)
	}
	for i, a := range o.Args {
		if strings.EqualFold(strings.TrimLeft(a, "-"), "appendonly") && i+1 < len(o.Args) && strings.EqualFold(o.Args[i+1], "yes") {
			return o, fmt.Errorf("%w: %s %s would make the server ignore the dump and start empty", ErrInvalidOption, a, o.Args[i+1])
		}
	}
	return o, nil
}
