package live

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/record"
)

// The replication commands, written on the connection as they are: their
// replies are not go-redis's to read (see replicaConn).
const (
	psyncCmd = "*3\r\n$5\r\nPSYNC\r\n$1\r\n?\r\n$2\r\n-1\r\n"
	syncCmd  = "*1\r\n$4\r\nSYNC\r\n"
)

// A Snapshot is the RDB file a primary sends its replica, as it arrives: read it with
// the RDB reader (or anything that reads an RDB file as a stream), then Close it to
// disconnect.
type Snapshot struct {
	// Size is the snapshot's size in bytes, -1 when the server does not tell it up front
	// (a diskless snapshot, written to the socket as the server makes it).
	Size int64
	rc   *replicaConn
	cr   *countingReader
	stop func() bool
	ctx  context.Context
}

// Snapshot connects as a replica and asks for a snapshot (Sync alone: it wraps
// ErrRefused when the server refuses replication). Options.Progress is called with the
// bytes read so far, every MiB. The URL's database does not apply: the snapshot holds
// every database.
func (s *Source) Snapshot(ctx context.Context) (*Snapshot, error) {
	s.clusterNotice(ctx)
	rc, err := s.replicaConn(ctx)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { rc.conn.Close() }) // unblocks a read
	payload, size, err := rc.request()
	if err != nil {
		stop()
		rc.close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	if size >= 0 {
		s.notice("receiving the snapshot of %s: %d bytes", s.addr, size)
	} else {
		s.notice("receiving the snapshot of %s (diskless: its size is not known up front)", s.addr)
	}
	cr := &countingReader{r: payload, report: func(n int64) {
		if s.opts.Progress != nil {
			s.opts.Progress(record.Progress{Bytes: n})
		}
	}}
	return &Snapshot{Size: size, rc: rc, cr: cr, stop: stop, ctx: ctx}, nil
}

// Read reads the snapshot's next bytes: io.EOF at its end.
func (sn *Snapshot) Read(p []byte) (int, error) {
	n, err := sn.cr.Read(p)
	if err != nil && err != io.EOF && sn.ctx.Err() != nil {
		err = sn.ctx.Err() // the connection closed by the cancel
	}
	return n, err
}

// Close disconnects.
func (sn *Snapshot) Close() error {
	sn.stop()
	sn.rc.close()
	return nil
}

// sync reads the server's snapshot as a replica does, into sink.
func (s *Source) sync(ctx context.Context, sink record.Sink) error {
	sn, err := s.Snapshot(ctx)
	if err != nil {
		return err
	}
	defer sn.Close()
	count := &record.Count{Next: sink}
	sn.cr.report = func(n int64) {
		if s.opts.Progress != nil {
			s.opts.Progress(record.Progress{Keys: count.Counts.Keys, Members: count.Members, Bytes: n})
		}
	}
	rd, err := decoder.NewReader(sn, s.opts.Decoder)
	if err == nil {
		err = rd.WriteTo(ctx, count)
		s.stats = rd.Stats()
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		var de *decoder.Error
		if errors.As(err, &de) {
			return fmt.Errorf("read the snapshot of %s: %w", s.addr, err)
		}
		return err // the sink's, as it is
	}
	sn.cr.report(sn.cr.n)
	return nil
}

// A replicaConn is a connection that asks for the snapshot. go-redis makes it
// (dial, TLS, AUTH) and sends the REPLCONF commands, whose replies are ordinary;
// the PSYNC or SYNC that follows is written and read on the connection itself,
// which a Dialer that keeps it hands over: the reply to PSYNC is a status line
// followed, not by another reply, but by the snapshot, a bulk string without its
// line end and possibly gigabytes long, and then the stream of commands, which
// no go-redis command reads. go-redis reads nothing past a reply, and the server
// sends nothing unasked before PSYNC, so no byte of the stream is in go-redis's
// buffer.
type replicaConn struct {
	client *redis.Client
	cn     *redis.Conn
	conn   net.Conn
	br     *bufio.Reader
	addr   Address
}

// replicaConn connects and announces the replica's capabilities.
func (s *Source) replicaConn(ctx context.Context) (*replicaConn, error) {
	o, err := s.addr.clientOptions(0, s.opts.TLS, s.opts.Timeout)
	if err != nil {
		return nil, err
	}
	rc := &replicaConn{addr: s.addr}
	var mu sync.Mutex
	dial := redis.NewDialer(o)
	o.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		mu.Lock()
		rc.conn = c
		mu.Unlock()
		return c, err
	}
	rc.client = redis.NewClient(o)
	rc.cn = rc.client.Conn()
	if err := rc.cn.Ping(ctx).Err(); err != nil {
		rc.close()
		return nil, fmt.Errorf("connect to %s: %w", s.addr, err)
	}
	// capa eof: the replica takes the diskless form; psync2: PSYNC's newer replies.
	if err := rc.cn.Do(ctx, "REPLCONF", "capa", "eof", "capa", "psync2").Err(); refused(err) {
		rc.close()
		return nil, fmt.Errorf("%w (REPLCONF: %v)", ErrRefused, err)
	}
	// Redis 7.0+: the snapshot alone, and no command stream after it (older
	// servers answer with an error, and the replica disconnects after the
	// snapshot anyway).
	_ = rc.cn.Do(ctx, "REPLCONF", "rdb-only", "1").Err()
	mu.Lock()
	defer mu.Unlock()
	if rc.conn == nil {
		rc.close()
		return nil, fmt.Errorf("connect to %s: no connection", s.addr)
	}
	rc.br = bufio.NewReaderSize(&timedReader{conn: rc.conn, timeout: s.opts.Timeout}, 64<<10)
	return rc, nil
}

// request asks for a full snapshot, with PSYNC or else SYNC, and returns its
// bytes and size (-1: unknown).
func (rc *replicaConn) request() (io.Reader, int64, error) {
	cmd := "PSYNC"
	line, err := rc.send(psyncCmd)
	switch {
	case err != nil:
	case line[0] == '-' && unknownCommand(string(line)):
		// A server older than 2.8, or PSYNC renamed away: SYNC, whose reply is
		// the snapshot itself.
		cmd = "SYNC"
		line, err = rc.send(syncCmd)
	case line[0] == '-':
	case strings.HasPrefix(string(line), "+FULLRESYNC "):
		if line, err = readLine(rc.br); err != nil {
			err = fmt.Errorf("replicate %s: %w", rc.addr, err)
		}
	default:
		return nil, 0, fmt.Errorf("%w: PSYNC at %s answered %q", ErrProtocol, rc.addr, clip(line))
	}
	if err != nil {
		return nil, 0, err
	}
	if line[0] == '-' {
		return nil, 0, rc.replyErr(cmd, line)
	}
	r, n, err := payloadReader(line, rc.br)
	if err != nil {
		return nil, 0, fmt.Errorf("snapshot of %s: %w", rc.addr, err)
	}
	return r, n, nil
}

// send writes a command and reads the line that answers it.
func (rc *replicaConn) send(cmd string) ([]byte, error) {
	if err := rc.write(cmd); err != nil {
		return nil, err
	}
	line, err := readLine(rc.br)
	if err != nil {
		return nil, fmt.Errorf("replicate %s: %w", rc.addr, err)
	}
	return line, nil
}

func (rc *replicaConn) write(cmd string) error {
	if err := rc.conn.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
		return err
	}
	if _, err := io.WriteString(rc.conn, cmd); err != nil {
		return fmt.Errorf("replicate %s: %w", rc.addr, err)
	}
	return nil
}

// replyErr is the error of a refused PSYNC or SYNC: ErrRefused for an unknown
// command or a permission refused.
func (rc *replicaConn) replyErr(cmd string, line []byte) error {
	msg := strings.TrimPrefix(string(clip(line)), "-")
	if unknownCommand(msg) || strings.HasPrefix(msg, "NOPERM") {
		return fmt.Errorf("%w (%s: %s)", ErrRefused, cmd, msg)
	}
	return fmt.Errorf("%s at %s: %s", cmd, rc.addr, msg)
}

func (rc *replicaConn) close() {
	if rc.cn != nil {
		rc.cn.Close()
	}
	rc.client.Close()
}

// refused reports whether err is a server's refusal of a command: unknown (a
// managed service's, or one renamed away) or not permitted.
func refused(err error) bool {
	var re redis.Error
	if !errors.As(err, &re) {
		return false
	}
	return unknownCommand(err.Error()) || strings.HasPrefix(err.Error(), "NOPERM")
}

func unknownCommand(msg string) bool {
	msg = strings.ToLower(msg)
	return strings.Contains(msg, "unknown command") || strings.Contains(msg, "unknown subcommand")
}

// timedReader reads from conn, each read bounded by timeout.
type timedReader struct {
	conn    net.Conn
	timeout time.Duration
}

func (t *timedReader) Read(p []byte) (int, error) {
	if err := t.conn.SetReadDeadline(time.Now().Add(t.timeout)); err != nil {
		return 0, err
	}
	return t.conn.Read(p)
}

// countingReader counts the bytes read through it and reports them every MiB.
type countingReader struct {
	r      io.Reader
	n      int64
	next   int64
	report func(n int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	if c.n >= c.next {
		c.next = c.n + 1<<20
		c.report(c.n)
	}
	return k, err
}
