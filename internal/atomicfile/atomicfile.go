// Package atomicfile writes a file so that its path holds either nothing new or the whole
// new file: the data goes to a temporary file in the same directory, which is synced and then
// renamed (or linked) into place only on Commit.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrExists is returned when the path exists and overwriting was not allowed.
var ErrExists = errors.New("file exists")

// A File is a temporary file that becomes the file at its path on Commit.
type File struct {
	*os.File
	path      string
	overwrite bool
	done      bool
}

// Create starts a file for path. Unless overwrite is set, an existing path is an error
// wrapping ErrExists, checked now and again on Commit. The file gets mode 0644.
func Create(path string, overwrite bool) (*File, error) {
	if err := Check(path, overwrite); err != nil {
		return nil, err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("create temporary file in %s: %w", dir, unwrapPath(err))
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("chmod %s: %w", f.Name(), err)
	}
	return &File{File: f, path: path, overwrite: overwrite}, nil
}

// Check makes the check of path that Create makes: nil when path does not exist, or exists
// and may be overwritten; an error for a directory, or for an existing file without overwrite
// (wrapping ErrExists). Commands use it to refuse early a second file that they write only
// after the first.
func Check(path string, overwrite bool) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("check %s: %w", path, unwrapPath(err))
	case fi.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case !overwrite:
		return fmt.Errorf("%s: %w (use --force to overwrite it)", path, ErrExists)
	}
	return nil
}

// Commit syncs and closes the temporary file and moves it to the path. Without overwrite, a
// file that appeared at the path meanwhile is left alone and Commit fails with ErrExists.
func (f *File) Commit() error {
	if err := f.finish(); err != nil {
		return err
	}
	if err := f.place(); err != nil {
		return err
	}
	return syncDir(filepath.Dir(f.path))
}

// finish syncs and closes the temporary file; it removes it on an error.
func (f *File) finish() error {
	if f.done {
		return errors.New("atomicfile: commit after commit or abort")
	}
	f.done = true
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", f.path, unwrapPath(err))
	}
	return nil
}

// place moves the finished temporary file to the path.
func (f *File) place() error {
	tmp := f.Name()
	var err error
	if f.overwrite {
		err = os.Rename(tmp, f.path)
	} else {
		// A hard link never replaces an existing file, so a file created after Create is
		// not clobbered; file systems without hard links fall back to a checked rename.
		err = os.Link(tmp, f.path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			if err = Check(f.path, false); err == nil {
				err = os.Rename(tmp, f.path)
			}
		} else if errors.Is(err, fs.ErrExist) {
			err = fmt.Errorf("%s: %w (use --force to overwrite it)", f.path, ErrExists)
		}
	}
	os.Remove(tmp) // after a link; after a rename it is gone already
	if err != nil {
		return fmt.Errorf("move %s into place: %w", f.path, unwrapPath(err))
	}
	return nil
}

// CommitAll commits files that only make sense together, such as the shard files of one
// dataset: it syncs and closes them all first, then moves them into place one after
// another. If any step fails, it aborts the files not yet moved and removes those it has
// moved, so that the paths never hold part of the set; a file they replaced (with overwrite)
// is gone then, which the error says.
func CommitAll(files []*File) error {
	for i, f := range files {
		if err := f.finish(); err != nil {
			for _, g := range files[i+1:] {
				g.Abort()
			}
			for _, g := range files[:i] {
				os.Remove(g.Name())
			}
			return err
		}
	}
	dirs := map[string]bool{}
	for i, f := range files {
		if err := f.place(); err != nil {
			for _, g := range files[i+1:] {
				os.Remove(g.Name())
			}
			var removed []string
			for _, g := range files[:i] {
				if os.Remove(g.path) == nil {
					removed = append(removed, filepath.Base(g.path))
				}
			}
			if len(removed) > 0 {
				return fmt.Errorf("%w; removed %s again, which were already in place", err, strings.Join(removed, ", "))
			}
			return err
		}
		dirs[filepath.Dir(f.path)] = true
	}
	for dir := range dirs {
		if err := syncDir(dir); err != nil {
			return err
		}
	}
	return nil
}

// Abort closes and removes the temporary file. It does nothing after Commit, so it can be
// deferred.
func (f *File) Abort() error {
	if f.done {
		return nil
	}
	f.done = true
	f.Close()
	return os.Remove(f.Name())
}

// syncDir makes a rename durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// unwrapPath drops the *PathError layer whose path the caller's message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
