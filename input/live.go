package input

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rdbgen/rdbgen/live"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// Live is the kind of a running server's input (redis://, rediss://), read by package
// live: as a replica, or with SCAN and DUMP (Options.Live).
const Live Kind = "live"

// IsDump reports whether the input's records are a dump's, as the RDB reader gives them: a
// dump file's or a live server's.
func (in *Input) IsDump() bool { return in.Kind == RDB || in.Kind == Live }

// openLive opens the live server arg names (redis://, rediss://), without connecting: each
// reading connects; a cluster (opts.Cluster) is asked for its primaries now. Its Arg and
// Name are the URL without its password.
func openLive(ctx context.Context, arg string, opts Options) (*Input, error) {
	if opts.Format != "" && opts.Format != Auto && opts.Format != RDB {
		return nil, fmt.Errorf("%w: a live server's records are read as a dump, not %s", ErrFormat, opts.Format)
	}
	lo := opts.Live
	lo.Decoder = opts.Decoder
	// A server holds each key once: no check for repeats (and nothing to read twice).
	lo.Decoder.OnDuplicate, lo.Decoder.CheckKeysFirst = "", false
	if opts.Cluster {
		cs, err := live.OpenCluster(ctx, arg, lo)
		if err != nil {
			return nil, err
		}
		name := "the cluster of " + cs.Address().String()
		cs.OnDuplicate = opts.OnDuplicate // two primaries may hold one key
		in := &Input{Kind: Live, Arg: cs.Address().String(), Name: name, Cluster: cs}
		in.Source = &server{in: in, src: cs}
		if err := opts.refuse(in); err != nil {
			return nil, err
		}
		return in, nil
	}
	src, err := live.Open(arg, lo)
	if err != nil {
		return nil, err
	}
	name := src.Address().String()
	in := &Input{Kind: Live, Arg: name, Name: name, Server: src}
	in.Source = &server{in: in, src: src}
	if err := opts.refuse(in); err != nil {
		return nil, err
	}
	return in, nil
}

// server is a live server's records, or a cluster's, as the Source of its Input.
type server struct {
	in  *Input
	src interface {
		record.Source
		Stats() decoder.Stats
	}
}

// WriteTo reads the server into sink and keeps what the reader saw in the Input's Read.
func (s *server) WriteTo(ctx context.Context, sink record.Sink) error {
	err := s.src.WriteTo(ctx, sink)
	s.in.Read = s.src.Stats()
	return err
}

// Touched reports whether the last reading of a live input counted as an access to every
// key of a server (SCAN and DUMP without CLIENT NO-TOUCH, before Redis 7.2): the keys' LRU
// idle times were reset, their LFU counters raised.
func (in *Input) Touched() bool {
	switch {
	case in.Cluster != nil:
		return in.Cluster.Touched()
	case in.Server != nil:
		return in.Server.Touched()
	}
	return false
}

// KeyPatterns returns the key patterns of the user (ACL GETUSER) that limited the last
// reading of a live input, a scan, to the keys the user may read, and the keys the scan
// listed and left out as outside them; nil and 0 when it read every key it listed.
func (in *Input) KeyPatterns() ([]string, uint64) {
	switch {
	case in.Cluster != nil:
		return in.Cluster.KeyPatterns(), in.Cluster.Outside()
	case in.Server != nil:
		return in.Server.KeyPatterns(), in.Server.Outside()
	}
	return nil, 0
}

// Snapshot returns the snapshot of the live server in, as a replica receives it, for a
// reader of a whole RDB file (inspect): one server's, of every database, read with
// live.Sync, as a scan gives none.
func (in *Input) Snapshot(ctx context.Context) (io.ReadCloser, error) {
	switch {
	case in.Cluster != nil:
		return nil, fmt.Errorf("%s: inspect reads one server's snapshot: name a primary, without --cluster", in.Name)
	case in.Server == nil:
		return nil, fmt.Errorf("input: %s is no live server: it has no snapshot", in.Name)
	case in.Server.Address().DB >= 0:
		return nil, fmt.Errorf("%s: inspect reads every database of a server: leave the database out of the URL", in.Name)
	case in.Server.Via() == live.Scan:
		return nil, fmt.Errorf("--via scan: inspect reads the server's snapshot (--via sync); %s", scanFirst(in.Name))
	}
	sn, err := in.Server.Snapshot(ctx)
	if errors.Is(err, live.ErrRefused) {
		return nil, fmt.Errorf("%w: inspect reads the server's snapshot, which a scan does not give; %s", err, scanFirst(in.Name))
	}
	if err != nil {
		return nil, err
	}
	return sn, nil
}

// scanFirst is the way to inspect a server whose snapshot inspect cannot have: a file of its
// keys read by a scan, then inspected.
func scanFirst(name string) string {
	return fmt.Sprintf("to inspect its keys, write them to a file first (rdbgen convert %s --via scan -o dump.rdb) and inspect that", name)
}
