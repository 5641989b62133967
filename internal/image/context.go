package image

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/rdbgen/rdbgen/internal/atomicfile"
)

// WriteContext writes the build context of the image for the dump at dumpPath into dir,
// which is created when missing: the Dockerfile, a copy of the dump and, with
// ExpiryFromStart, of the rdbgen binary and, when it is linked dynamically, of its loader
// and libraries (in rdbgen-lib/). Existing files are
// replaced only with overwrite. Build it with "docker build -t TAG DIR".
func WriteContext(ctx context.Context, dumpPath, dir string, overwrite bool, opts Options) (*Plan, error) {
	p, err := NewPlan(ctx, dumpPath, opts)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, unwrapPath(err))
	}
	src, err := os.Open(dumpPath)
	if err != nil {
		return nil, fmt.Errorf("open dump: %w", err)
	}
	defer src.Close()
	dump, err := atomicfile.Create(filepath.Join(dir, DumpName), overwrite)
	if err != nil {
		return nil, err
	}
	defer dump.Abort()
	df, err := atomicfile.Create(filepath.Join(dir, "Dockerfile"), overwrite)
	if err != nil {
		return nil, err
	}
	defer df.Abort()
	if _, err := io.Copy(dump, &ctxReader{ctx, src}); err != nil {
		return nil, fmt.Errorf("copy %s to %s: %w", dumpPath, dir, err)
	}
	if _, err := df.Write(p.Dockerfile); err != nil {
		return nil, fmt.Errorf("write %s: %w", df.Name(), err)
	}
	files := []*atomicfile.File{dump, df}
	if p.Binary != "" {
		bin, err := copyBinary(ctx, p.Binary, filepath.Join(dir, binaryName), overwrite)
		if err != nil {
			return nil, err
		}
		defer bin.Abort()
		files = append(files, bin)
	}
	if len(p.Libraries) > 0 {
		libDir := filepath.Join(dir, libraryContextDir)
		if err := os.MkdirAll(libDir, 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", libDir, unwrapPath(err))
		}
		for _, l := range p.Libraries {
			lib, err := copyBinary(ctx, l.Path, filepath.Join(libDir, l.Name), overwrite)
			if err != nil {
				return nil, err
			}
			defer lib.Abort()
			files = append(files, lib)
		}
	}
	if err := atomicfile.CommitAll(files); err != nil {
		return nil, err
	}
	return p, nil
}

// writeTar writes the build context of p as a tar stream: the Dockerfile, the dump and, with
// ExpiryFromStart, the rdbgen binary and the libraries it needs.
func writeTar(ctx context.Context, w io.Writer, p *Plan) error {
	tw := tar.NewWriter(w)
	now := time.Now()
	if err := tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0o644, Size: int64(len(p.Dockerfile)), ModTime: now}); err != nil {
		return err
	}
	if _, err := tw.Write(p.Dockerfile); err != nil {
		return err
	}
	if err := tarFile(ctx, tw, p.DumpPath, DumpName, 0o644, p.DumpSize, now); err != nil {
		return err
	}
	if p.Binary != "" {
		fi, err := os.Stat(p.Binary)
		if err != nil {
			return err
		}
		if err := tarFile(ctx, tw, p.Binary, binaryName, 0o755, fi.Size(), now); err != nil {
			return err
		}
	}
	for _, l := range p.Libraries {
		fi, err := os.Stat(l.Path)
		if err != nil {
			return err
		}
		if err := tarFile(ctx, tw, l.Path, libraryContextDir+"/"+l.Name, 0o755, fi.Size(), now); err != nil {
			return err
		}
	}
	return tw.Close()
}

// tarFile writes the file at path, of size bytes, into tw as name.
func tarFile(ctx context.Context, tw *tar.Writer, path, name string, mode, size int64, now time.Time) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: size, ModTime: now}); err != nil {
		return err
	}
	n, err := io.Copy(tw, &ctxReader{ctx, f})
	if err == nil && n != size {
		err = fmt.Errorf("%s changed size while it was read", path)
	}
	return err
}

// copyBinary copies the executable (or library) at src to dst, executable, not yet committed.
func copyBinary(ctx context.Context, src, dst string, overwrite bool) (*atomicfile.File, error) {
	in, err := os.Open(src)
	if err != nil {
		return nil, fmt.Errorf("open rdbgen binary: %w", err)
	}
	defer in.Close()
	out, err := atomicfile.Create(dst, overwrite)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(out, &ctxReader{ctx, in}); err != nil {
		out.Abort()
		return nil, fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	if err := out.Chmod(0o755); err != nil {
		out.Abort()
		return nil, fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	return out, nil
}

// ctxReader stops reading once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// unwrapPath drops the *PathError layer whose path the caller's message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
