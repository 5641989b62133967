// Package image builds Docker images of Redis that start with a dataset already loaded: the
// dump file goes into the base image's data directory, owned by the server's user, and the
// start command loads it at start-up and, unless asked otherwise, never writes it back.
//
// [Build] builds the image with the docker CLI, streaming the build context (a Dockerfile and
// the dump) to "docker build" without copying the dump first; [WriteContext] writes the same
// context to a directory, for builds that run elsewhere. Both refuse, before anything is
// built, a dump whose RDB version is newer than the base image's server can load
// ([ErrTooNew]), and a base image whose server they cannot tell ([ErrUnknownBase]) unless
// [Options.Force] is set.
//
// The package never prints: docker build's output goes to [Options.Progress].
package image
