package server

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// fileEntry is a file to copy into a container.
type fileEntry struct {
	name     string // relative to the directory copied into
	src      string // local file to copy, or "" for data
	data     []byte
	uid, gid int
}

// copyInto copies files into the directory dir of a container, running or
// not, through a tar stream on "docker cp"'s standard input. The stream sets
// each file's name, owner, and mode 0644, whatever the local files' are, so
// that the server reads them whatever user it runs as.
func (d docker) copyInto(ctx context.Context, container, dir string, files []fileEntry) error {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeTar(pw, files)) }()
	_, err := d.run(ctx, pr, "cp", "-", container+":"+dir)
	pr.Close()
	return err
}

func writeTar(w io.Writer, files []fileEntry) error {
	tw := tar.NewWriter(w)
	for _, f := range files {
		var r io.Reader = bytes.NewReader(f.data)
		size := int64(len(f.data))
		if f.src != "" {
			file, err := os.Open(f.src)
			if err != nil {
				return err
			}
			defer file.Close()
			fi, err := file.Stat()
			if err != nil {
				return err
			}
			r, size = file, fi.Size()
		}
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     f.name,
			Size:     size,
			Mode:     0o644,
			Uid:      f.uid,
			Gid:      f.gid,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := io.CopyN(tw, r, size); err != nil {
			return err
		}
	}
	return tw.Close()
}

// errNoFile reports a file missing from a container.
var errNoFile = errors.New("no such file in the container")

// readFile returns a small file of a container, running or not, and the tar
// header docker gives it, which tells its owner. A missing file is errNoFile.
func (d docker) readFile(ctx context.Context, container, file string) (*tar.Header, []byte, error) {
	out, err := d.output(ctx, nil, "cp", container+":"+file, "-")
	if err != nil {
		if strings.Contains(err.Error(), "Could not find the file") {
			return nil, nil, fmt.Errorf("%s: %w", file, errNoFile)
		}
		return nil, nil, err
	}
	tr := tar.NewReader(bytes.NewReader(out))
	hdr, err := tr.Next()
	if err != nil {
		return nil, nil, fmt.Errorf("docker cp %s: %w", file, err)
	}
	if hdr.Typeflag != tar.TypeReg || path.Base(hdr.Name) != path.Base(file) {
		return nil, nil, fmt.Errorf("docker cp %s: not a regular file", file)
	}
	b, err := io.ReadAll(tr)
	if err != nil {
		return nil, nil, fmt.Errorf("docker cp %s: %w", file, err)
	}
	return hdr, b, nil
}
