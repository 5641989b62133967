package output

import (
	"context"
	"fmt"
	"io"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
	"github.com/rdbgen/rdbgen/internal/gz"
	"github.com/rdbgen/rdbgen/internal/objstore"
	"github.com/rdbgen/rdbgen/manifest"
)

// A placer is where a file's bytes go until Commit puts it in place with its manifest, or
// Abort leaves nothing: a temporary file on disk (diskFile), an upload (objectFile), either
// compressed on the way (gzipFile).
type placer interface {
	io.Writer
	// Commit puts the file in place with m as its manifest (when it has one).
	Commit(m *manifest.Manifest) error
	// Abort removes what was written; it does nothing after Commit.
	Abort()
	// Stale returns the temporary files of killed runs removed on the way.
	Stale() []string
}

// An objectFile is an RDB file being uploaded to object storage, with its manifest an object
// beside it (or at a path of its own): Commit completes the upload, then writes the
// manifest; Abort cancels the upload, and no object appears.
type objectFile struct {
	w *objstore.Writer
	// manifest is where the manifest goes: an object URL or a path; empty for none.
	manifest string
}

// createObject starts the upload of the object at rawURL, with its manifest at
// manifestPath (empty: none). Unless force is set, an existing object or manifest is an
// error wrapping ErrExists.
func createObject(rawURL, manifestPath string, force bool) (*objectFile, error) {
	obj, err := objstore.Parse(rawURL, false)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	w, err := obj.Create(ctx, force) // nothing is sent before the first part
	if err != nil {
		return nil, err
	}
	if err := checkManifestAt(ctx, manifestPath, force); err != nil {
		w.Abort()
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return &objectFile{w: w, manifest: manifestPath}, nil
}

func (f *objectFile) Write(p []byte) (int, error) { return f.w.Write(p) }
func (f *objectFile) Abort()                      { f.w.Abort() }
func (f *objectFile) Stale() []string             { return nil }

// Commit completes the upload, then writes m as the manifest. When the manifest cannot be
// written, the object is deleted again: neither stays without the other.
func (f *objectFile) Commit(m *manifest.Manifest) error {
	if err := f.w.Commit(); err != nil {
		return err
	}
	if f.manifest == "" {
		return nil
	}
	if err := writeManifestAt(context.Background(), f.manifest, m); err != nil {
		if derr := f.w.Delete(context.Background()); derr != nil {
			return fmt.Errorf("wrote %s but not its manifest (%v), and could not delete it: %w", f.w.URL, err, derr)
		}
		return fmt.Errorf("%s not written: its manifest: %w", f.w.URL, err)
	}
	return nil
}

// checkManifestAt checks that the manifest at path, an object URL or a file, may be written.
func checkManifestAt(ctx context.Context, path string, force bool) error {
	switch {
	case path == "":
		return nil
	case !objstore.IsURL(path):
		return atomicfile.Check(path, force)
	}
	obj, err := objstore.Parse(path, false)
	if err != nil {
		return err
	}
	return obj.Check(ctx, force)
}

// writeManifestAt writes m at path, an object URL (in one request) or a file.
func writeManifestAt(ctx context.Context, path string, m *manifest.Manifest) error {
	if !objstore.IsURL(path) {
		return manifest.Write(path, m)
	}
	obj, err := objstore.Parse(path, false)
	if err != nil {
		return err
	}
	data, err := manifest.Marshal(m)
	if err != nil {
		return err
	}
	return obj.Put(ctx, data)
}

// A gzipFile compresses what is written on its way to the file (package gz).
type gzipFile struct {
	placer
	zw *gz.Writer
}

// compressed returns p writing gzip.
func compressed(p placer) *gzipFile {
	return &gzipFile{placer: p, zw: gz.New(p)}
}

func (g *gzipFile) Write(b []byte) (int, error) { return g.zw.Write(b) }

// Commit ends the compressed stream, then puts the file in place.
func (g *gzipFile) Commit(m *manifest.Manifest) error {
	if err := g.zw.End(); err != nil {
		return err
	}
	return g.placer.Commit(m)
}
