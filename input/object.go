package input

import (
	"context"
	"io"
	"os"

	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/rdb/decoder"
)

// openObjectDump makes the input the dump in.object holds, read where it is at every
// reading: a plain dump through an objstore.Source (one GET from its start, and ranged GETs
// where the reader reads a long collection again), a compressed one through one GET
// decompressed on the way. Nothing is written to disk; memory is the reader's buffers.
func (in *Input) openObjectDump(ctx context.Context, gzip bool, opts Options) error {
	in.gzip = gzip
	src, err := in.object.OpenSource(ctx)
	if err != nil {
		return err
	}
	if !gzip {
		in.Size = src.Size() // as read: a compressed object's size is not its dump's
	}
	src.Close()
	in.ctx = ctx
	dopts := opts.Decoder
	dopts.OnDuplicate = opts.OnDuplicate
	in.Source = &dump{in: in, opts: dopts}
	return nil
}

// OpenDump opens the dump the input reads, from its start, for one more reading: its file
// (Path), or its object, read where it is (an io.ReaderAt and io.Seeker too, when it is not
// compressed: see decoder.NewReader). Close what it returns.
func (in *Input) OpenDump() (io.ReadCloser, error) {
	if !in.remote || in.Path != "" {
		return os.Open(in.Path)
	}
	if !in.gzip {
		return in.object.OpenSource(in.ctx)
	}
	body, err := in.object.Open(in.ctx)
	if err != nil {
		return nil, err
	}
	r, err := importer.Open("-", body)
	if err != nil {
		body.Close()
		return nil, err
	}
	return &gunzipped{Input: r, body: body}, nil
}

// DumpFile returns the decoder.File that reads the dump with opts, naming it.
func (in *Input) DumpFile(opts decoder.Options) decoder.File {
	f := decoder.File{Path: in.Path, Name: in.Name, Options: opts}
	if in.Path == "" && in.remote {
		f.Open = in.OpenDump
	}
	return f
}

// gunzipped is a compressed object being read, decompressed.
type gunzipped struct {
	*importer.Input
	body io.Closer
}

func (g *gunzipped) Close() error {
	err := g.Input.Close()
	g.body.Close()
	return err
}
