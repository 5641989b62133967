package image

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rdbgen/rdbgen/internal/dockercli"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/verify"
)

// A Plan is what an image will hold, decided before anything is built.
type Plan struct {
	// DumpPath is the dump file, and DumpName its base name.
	DumpPath, DumpName string
	// DumpSize is the dump's size in bytes.
	DumpSize int64
	// RDBVersion is the version in the dump's header.
	RDBVersion int
	// Keys and Checksum come from the dump's manifest, when there is one beside it; Keys
	// is -1 and Checksum "" otherwise.
	Keys     int64
	Checksum string
	// Base is the base image, and Server the release it runs; Server.MaxRDBVersion is 0
	// when the release is unknown and Options.Force let the build go on.
	Base   string
	Server Server
	// Entrypoint is the base image's entrypoint, which the image keeps in front of Command
	// (the official images' docker-entrypoint.sh, which drops root and fixes ownership).
	Entrypoint []string
	// Command is the server's start command in the image. It is part of the image's
	// ENTRYPOINT, so that the arguments of "docker run IMAGE ARGS…" are appended to it, as
	// with the official images, instead of replacing it.
	Command []string
	// Dockerfile is the Dockerfile's text.
	Dockerfile []byte
	// Binary is the rdbgen executable the image carries, with Options.ExpiryFromStart;
	// empty otherwise.
	Binary string
	// Libraries are what a dynamically linked Binary needs, carried into LibraryDir from
	// this machine: its interpreter first, through which the image runs it, then the
	// shared libraries it needs. Empty for a static Binary.
	Libraries []Library
	// MinExpireAtMS and MaxExpireAtMS bound the dump's expiries (Unix ms), 0 when no key
	// has one.
	MinExpireAtMS, MaxExpireAtMS int64
	// Warnings are what the caller should tell: the dump holds expiries that will have
	// passed within a day of the build, and the image keeps them as they are.
	Warnings []string
}

// staleWithin is how soon after the build an expiry makes NewPlan warn.
const staleWithin = 24 * time.Hour

// NewPlan checks the dump at dumpPath against the base image and returns the plan of the
// image. It fails with decoder.ErrNotRDB for a file that is not an RDB file, ErrTooNew when the base
// image's server cannot load it, ErrUnknownBase when that server cannot be told and
// opts.Force is not set, and ErrDamaged when the offline check of verify fails (the file is
// read whole).
func NewPlan(ctx context.Context, dumpPath string, opts Options) (*Plan, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	version, size, err := readHeader(dumpPath)
	if err != nil {
		return nil, err
	}
	p := &Plan{DumpPath: dumpPath, DumpName: filepath.Base(dumpPath), DumpSize: size, RDBVersion: version, Keys: -1, Base: o.Base}
	if m, err := manifest.Read(manifest.PathFor(dumpPath)); err == nil && m.Bytes == size {
		p.Keys, p.Checksum = int64(m.Keys), m.Checksum
	}
	s, known := ServerOf(ctx, dockercli.Client{Host: o.DockerHost}, o.Base)
	switch {
	case known:
		if err := checkLoads(o.Base, s, dumpPath, version); err != nil {
			return nil, err
		}
	case !o.Force:
		return nil, fmt.Errorf("%w: cannot tell which RDB versions base image %s loads: its tag names no Redis or Valkey release "+
			"and docker has no copy of it that says (REDIS_VERSION); use --force to build anyway", ErrUnknownBase, o.Base)
	default:
		repo, _ := splitRef(o.Base)
		s = Server{Family: familyOf(repo), Version: "unknown", Source: "tag"}
		if s.Family == "" {
			s.Family = "redis"
		}
	}
	p.Server = s
	p.Entrypoint = entrypointOf(ctx, dockercli.Client{Host: o.DockerHost}, o.Base)
	// The whole file, as verify checks it offline: an image of a damaged dump never starts.
	rep, err := verify.File(ctx, dumpPath, verify.Options{Offline: true})
	if err != nil {
		return nil, fmt.Errorf("check dump: %w", err)
	}
	if !rep.Pass {
		return nil, fmt.Errorf("%w: %s: %s", ErrDamaged, dumpPath, rep.Reason)
	}
	p.MinExpireAtMS, p.MaxExpireAtMS = rep.File.MinExpireAtMS, rep.File.MaxExpireAtMS
	if o.ExpiryFromStart {
		libs, err := checkBinary(o.Binary, archOf(ctx, dockercli.Client{Host: o.DockerHost}, o.Base))
		if err != nil {
			return nil, err
		}
		if _, ok := rep.File.Aux["ctime"]; !ok {
			// The image holds no manifest: the entrypoint has the ctime field alone to go by.
			return nil, fmt.Errorf("%w: %s has no ctime AUX field, so the image cannot tell when it was written to move its expiries; "+
				"write it again with rdbgen convert (--rebase-expiry reads its manifest's creation time)", ErrInvalidOption, dumpPath)
		}
		p.Binary, p.Libraries = o.Binary, libs
	} else if w := staleWarning(rep.File, time.Now()); w != "" {
		p.Warnings = append(p.Warnings, w)
	}
	p.Command = startCommand(p, o)
	p.Dockerfile = dockerfile(p, o)
	return p, nil
}

// readHeader returns the RDB version in the header of the file at path, and its size.
func readHeader(path string) (int, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, fmt.Errorf("open dump: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("open dump: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return 0, 0, fmt.Errorf("%s is not a regular file", path)
	}
	var h [9]byte
	n, _ := io.ReadFull(f, h[:])
	digits := string(h[5:])
	if n < len(h) || string(h[:5]) != "REDIS" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, 0, fmt.Errorf("%w: %s starts with %q, not REDIS and a 4-digit version", decoder.ErrNotRDB, path, h[:n])
	}
	v, _ := strconv.Atoi(digits) // four digits: always a number
	return v, fi.Size(), nil
}

// staleWarning tells, when some of the dump's expiries pass before a day from now, how many
// have passed and when the first and last pass; "" when none does.
func staleWarning(f *verify.FileReport, now time.Time) string {
	if f == nil || f.Expires == 0 || f.MinExpireAtMS > now.Add(staleWithin).UnixMilli() {
		return ""
	}
	in := func(ms int64) string {
		d := time.UnixMilli(ms).Sub(now).Round(time.Second)
		if d <= 0 {
			return fmt.Sprintf("passed %s ago", -d)
		}
		return "passes in " + d.String()
	}
	return fmt.Sprintf("%s holds %d keys with a TTL, %d of them expired already; the first expiry %s and the last %s: "+
		"the server drops expired keys at start-up, so the image starts with fewer (use --expiry-from-start to count TTLs from the container's start)",
		f.Path, f.Expires, f.Expired, in(f.MinExpireAtMS), in(f.MaxExpireAtMS))
}
