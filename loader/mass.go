package loader

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rdbgen/rdbgen/resp"
)

// Mass insertion, the way redis-cli --pipe does it: the source's goroutine writes the
// commands as fast as the socket takes them and ends the stream with ECHO of a random
// marker; another goroutine reads the replies as they come, counts the keys confirmed,
// and knows that every reply has arrived when the marker comes back.

// massBuffer is the size of the connection's read and write buffers.
const massBuffer = 64 << 10

// deadlineEvery is how many commands or replies pass between extensions of a
// connection's deadlines.
const deadlineEvery = 256

// chunkSize is the number of commands whose keys and flags the writer hands the reader
// at once; the writer flushes its buffer with each chunk, so that the reader never waits
// for a reply to a command still in the buffer.
const chunkSize = 1024

// maxChunks bounds the chunks in flight, and so the commands sent but not yet answered.
const maxChunks = 512

// A chunk tells the reader about commands sent: whether each is the last of its record,
// whether that record expires, and its key.
type chunk struct {
	flags []uint8
	ends  []int // end of each command's key in keys
	keys  []byte
}

// The flags of a command in a chunk.
const (
	flagLast = 1 << iota
	flagExpires
	flagNoKey
)

// massConduit is one raw RESP connection: the writer's and the reader's shared state.
type massConduit struct {
	l      *load
	addr   string
	n      *nodeCounts
	conn   net.Conn
	w      *bufio.Writer
	r      *bufio.Reader
	marker []byte

	cmd    []byte // scratch for one command's RESP
	sent   uint64 // commands written; the writer's alone
	cur    *chunk
	chunks chan *chunk
	pool   sync.Pool
	done   chan struct{} // closed when the reader returns
	stopAf func() bool   // stops the context's AfterFunc

	stop     atomic.Bool // set on the first error reply or failure: no more commands
	replyErr error       // the first error reply; the reader's until done

	mu   sync.Mutex // guards the connection's deadlines and err
	err  error      // the first failure of the connection or the context
	dead bool       // set by fail: the deadlines stay in the past
}

// openMass connects to addr, authenticates, pings, and starts the reader.
func (l *load) openMass(ctx context.Context, addr string, n *nodeCounts) (*massConduit, error) {
	conn, err := l.connect(ctx, addr)
	if err != nil {
		return nil, err
	}
	m := &massConduit{l: l, addr: addr, n: n, conn: conn,
		r: bufio.NewReaderSize(conn, massBuffer), w: bufio.NewWriterSize(conn, massBuffer),
		chunks: make(chan *chunk, maxChunks), done: make(chan struct{})}
	if err := m.handshake(); err != nil {
		conn.Close()
		return nil, err
	}
	var b [20]byte
	_, _ = rand.Read(b[:])
	m.marker = []byte(hex.EncodeToString(b[:]))
	m.cur = m.newChunk()
	m.stopAf = context.AfterFunc(ctx, func() { m.fail(ctx.Err()) })
	go func() {
		defer close(m.done)
		if err := m.read(); err != nil {
			m.fail(fmt.Errorf("read replies: %w", err))
		}
	}()
	return m, nil
}

// connect dials addr, over TLS when configured.
func (l *load) connect(ctx context.Context, addr string) (net.Conn, error) {
	conn, err := l.dial(ctx, addr)
	if err != nil || l.o.TLSConfig == nil {
		return conn, err
	}
	cfg := l.o.TLSConfig
	if cfg.ServerName == "" && !cfg.InsecureSkipVerify {
		cfg = cfg.Clone()
		cfg.ServerName, _, _ = net.SplitHostPort(addr)
	}
	tc := tls.Client(conn, cfg)
	hctx, cancel := context.WithTimeout(ctx, l.o.DialTimeout)
	defer cancel()
	if err := tc.HandshakeContext(hctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("connect: tls: %w", err)
	}
	return tc, nil
}

// handshake authenticates and pings, in one round trip, and returns the first error.
func (m *massConduit) handshake() error {
	cmds := m.l.authCommand(nil)
	cmds = resp.AppendCommand(cmds, []byte("PING"))
	m.extend(m.conn.SetDeadline, m.l.o.DialTimeout)
	if _, err := m.w.Write(cmds); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if err := m.w.Flush(); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	var first error
	if m.l.o.Password != "" {
		first = resp.ExpectStatus(m.r, "OK")
	}
	if err := resp.ExpectStatus(m.r, "PONG"); err != nil && first == nil {
		first = err
	}
	if first != nil {
		return fmt.Errorf("connect: %w", first)
	}
	return nil
}

// fail records err, if it is the first failure, and ends the connection's reads and
// writes at once.
func (m *massConduit) fail(err error) {
	m.stop.Store(true)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err == nil {
		m.err = err
	}
	m.dead = true
	_ = m.conn.SetDeadline(time.Unix(1, 0))
}

// extend moves a deadline of the connection to d from now, unless it has failed.
func (m *massConduit) extend(set func(time.Time) error, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.dead {
		_ = set(time.Now().Add(d))
	}
}

func (m *massConduit) newChunk() *chunk {
	if c, ok := m.pool.Get().(*chunk); ok {
		c.flags, c.ends, c.keys = c.flags[:0], c.ends[:0], c.keys[:0]
		return c
	}
	return &chunk{flags: make([]uint8, 0, chunkSize), ends: make([]int, 0, chunkSize)}
}

// emit writes one command.
func (m *massConduit) emit(cmd *resp.Command) error {
	if m.stop.Load() {
		return errStopped
	}
	if m.sent%deadlineEvery == 0 {
		m.extend(m.conn.SetWriteDeadline, m.l.o.Timeout)
	}
	m.sent++
	m.cmd = resp.AppendCommand(m.cmd[:0], cmd.Args...)
	if _, err := m.w.Write(m.cmd); err != nil {
		m.fail(fmt.Errorf("send commands: %w", err))
		return errStopped
	}
	var f uint8
	if cmd.Last {
		f |= flagLast
	}
	if cmd.Expires {
		f |= flagExpires
	}
	if cmd.Key == nil {
		f |= flagNoKey
	}
	c := m.cur
	c.flags = append(c.flags, f)
	c.keys = append(c.keys, cmd.Key...)
	c.ends = append(c.ends, len(c.keys))
	if len(c.flags) == chunkSize {
		return m.sendChunk()
	}
	return nil
}

// sendChunk flushes the buffer and hands the chunk to the reader.
func (m *massConduit) sendChunk() error {
	if err := m.w.Flush(); err != nil {
		m.fail(fmt.Errorf("send commands: %w", err))
		return errStopped
	}
	select {
	case m.chunks <- m.cur:
	case <-m.done: // the reader failed
		return errStopped
	}
	m.cur = m.newChunk()
	return nil
}

// finish sends the last chunk and the marker, and waits for the reader.
func (m *massConduit) finish() error {
	if len(m.cur.flags) > 0 {
		_ = m.sendChunk()
	}
	close(m.chunks)
	m.extend(m.conn.SetWriteDeadline, m.l.o.Timeout)
	if _, err := m.w.Write(resp.AppendCommand(m.cmd[:0], []byte("ECHO"), m.marker)); err == nil {
		if err := m.w.Flush(); err != nil {
			m.fail(fmt.Errorf("send commands: %w", err))
		}
	} else {
		m.fail(fmt.Errorf("send commands: %w", err))
	}
	<-m.done
	if m.replyErr != nil {
		return m.replyErr // the server's own words explain more than a lost connection
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// close stops watching the context and closes the connection.
func (m *massConduit) close() {
	m.stopAf()
	m.conn.Close()
}

// read reads the replies, chunk by chunk, then the marker's.
func (m *massConduit) read() error {
	var i uint64
	for c := range m.chunks {
		for k, f := range c.flags {
			if i%deadlineEvery == 0 {
				m.extend(m.conn.SetReadDeadline, m.l.o.Timeout)
			}
			i++
			kind, text, err := resp.ReadReply(m.r)
			if errors.Is(err, io.EOF) {
				return errors.New("the server closed the connection")
			}
			if err != nil {
				return err
			}
			switch {
			case kind == '-':
				if m.replyErr == nil {
					var key []byte
					if f&flagNoKey == 0 {
						key = c.keys[c.start(k):c.ends[k]]
					}
					m.replyErr = keyError(key, m.addr, resp.ReplyError(text))
					m.stop.Store(true)
				}
			case m.replyErr == nil && f&flagLast != 0:
				m.l.confirm(m.n, f&flagExpires != 0)
			}
		}
		m.pool.Put(c)
	}
	m.extend(m.conn.SetReadDeadline, m.l.o.Timeout)
	kind, text, err := resp.ReadReply(m.r)
	if errors.Is(err, io.EOF) {
		return errors.New("the server closed the connection")
	}
	if err != nil {
		return err
	}
	if kind != '$' || string(text) != string(m.marker) {
		return fmt.Errorf("%w: ECHO replied %c%s", resp.ErrProtocol, kind, text)
	}
	return nil
}

// start returns where command k's key starts.
func (c *chunk) start(k int) int {
	if k == 0 {
		return 0
	}
	return c.ends[k-1]
}
