package server

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// A server with appendonly on loads its append-only file (AOF) and ignores
// dump.rdb. Since Redis 7.0 (and in Valkey) the AOF is a directory
// (appenddirname) of files that a manifest lists: a base file, which may be
// an RDB file, and incremental files of commands. A restart takes over that
// directory: it writes the dump file as a new base, an empty incremental file
// and a manifest that lists just those two, with sequence numbers above every
// number the old manifest used, so that no file the server makes later can
// meet an old one. The old files stay, unlisted; the server ignores them.
//
// Older servers keep one AOF file, of another format: a restart refuses them
// with ErrAppendOnly.

// aofDir is the AOF layout of a Redis 7 server: its directory and the base
// name of its files.
type aofDir struct {
	dir      string // appenddirname
	filename string // appendfilename
}

// takeOverAOF returns the files that make the server of a stopped container
// load the dump file at abs as its AOF, relative to its data directory dir.
func takeOverAOF(ctx context.Context, d docker, container, dir, abs string, aof aofDir) ([]fileEntry, error) {
	manifest := aof.filename + ".manifest"
	hdr, old, err := d.readFile(ctx, container, path.Join(dir, aof.dir, manifest))
	if errors.Is(err, errNoFile) {
		return nil, fmt.Errorf("%w, and it has no AOF manifest %s to take over", ErrAppendOnly, path.Join(aof.dir, manifest))
	}
	if err != nil {
		return nil, fmt.Errorf("read the AOF manifest: %w", err)
	}
	seq, err := maxManifestSeq(string(old))
	if err != nil {
		return nil, fmt.Errorf("read the AOF manifest: %w", err)
	}
	seq++
	base := fmt.Sprintf("%s.%d.base.rdb", aof.filename, seq)
	incr := fmt.Sprintf("%s.%d.incr.aof", aof.filename, seq)
	m := fmt.Sprintf("file %s seq %d type b\nfile %s seq %d type i\n", base, seq, incr, seq)
	// The server appends to the incremental file: it must own it, like the
	// old manifest.
	uid, gid := hdr.Uid, hdr.Gid
	return []fileEntry{
		{name: path.Join(aof.dir, base), src: abs, uid: uid, gid: gid},
		{name: path.Join(aof.dir, incr), uid: uid, gid: gid},
		{name: path.Join(aof.dir, manifest), data: []byte(m), uid: uid, gid: gid},
	}, nil
}

// maxManifestSeq returns the highest sequence number in an AOF manifest,
// whose lines read "file NAME seq N type T".
func maxManifestSeq(manifest string) (int, error) {
	top := 0
	for line := range strings.Lines(manifest) {
		f := strings.Fields(line)
		for i := 0; i+1 < len(f); i++ {
			if f[i] != "seq" {
				continue
			}
			n, err := strconv.Atoi(f[i+1])
			if err != nil {
				return 0, fmt.Errorf("bad line %q", strings.TrimSpace(line))
			}
			top = max(top, n)
		}
	}
	return top, nil
}
