package loader

import (
	"bufio"
	"bytes"
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
	exps  []int64    // each command's Command.ExpireAtMS
	temps []*tempKey // the temporary key each RENAME moves, nil for other commands
	dbs   []int32    // the database of each command
	ns    []uint32   // the keys each command confirms: 1, or an MSET's keys
}

// The flags of a command in a chunk.
const (
	flagLast = 1 << iota
	flagExpires
	flagNoKey
	flagRename // a record's RENAME of its temporary key
	flagMSet   // a MSET of the Auto method, of strings without an expiry
)

// massConduit is one raw RESP connection: the writer's and the reader's shared state.
type massConduit struct {
	l      *load
	ctx    context.Context
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

	auto *gatherer // the Auto method's MSETs; nil for the other methods

	stop     atomic.Bool // set on the first error reply or failure: no more commands
	replyErr error       // the first error reply; the reader's until done

	// Records built under a temporary name (see temp.go): the writer holds each one's
	// RENAME until the reader has read every reply before it without an error.
	okThrough  atomic.Uint64 // replies read from the first on, none an error
	progressed chan struct{} // signalled by the reader after each chunk
	open       *tempKey      // the record being built under a temporary name; the writer's
	held       []heldRename  // the RENAMEs held, in order; the writer's
	args       [][]byte      // scratch for a RENAME's arguments; the writer's
	unmoved    []tempKey     // the temporary keys of the RENAMEs that failed; the reader's
	stale      []tempKey     // the keys whose RENAME found them expired; the reader's

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
	m := &massConduit{l: l, ctx: ctx, addr: addr, n: n, conn: conn,
		r: bufio.NewReaderSize(conn, massBuffer), w: bufio.NewWriterSize(conn, massBuffer),
		chunks: make(chan *chunk, maxChunks), done: make(chan struct{}), progressed: make(chan struct{}, 1)}
	if err := m.handshake(); err != nil {
		conn.Close()
		return nil, err
	}
	var b [20]byte
	_, _ = rand.Read(b[:])
	m.marker = []byte(hex.EncodeToString(b[:]))
	m.cur = m.newChunk()
	if l.o.Method == Auto {
		m.auto = l.newGatherer(l.autoCaps(addr))
	}
	m.stopAf = context.AfterFunc(ctx, func() { m.interrupt(ctx.Err()) })
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

// interrupt records err, the context's, if it is the first failure, and stops the writer,
// but not the reader: the replies of the commands sent are still read, so that the count is
// what the server holds and no command of the load runs after the temporary keys are
// removed. The reads keep their deadlines.
func (m *massConduit) interrupt(err error) {
	m.stop.Store(true)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err == nil {
		m.err = err
	}
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
		c.flags, c.ends, c.keys, c.exps = c.flags[:0], c.ends[:0], c.keys[:0], c.exps[:0]
		clear(c.temps)
		c.temps, c.dbs, c.ns = c.temps[:0], c.dbs[:0], c.ns[:0]
		return c
	}
	return &chunk{flags: make([]uint8, 0, chunkSize), ends: make([]int, 0, chunkSize), exps: make([]int64, 0, chunkSize)}
}

// A heldRename is a record's RENAME, held until the commands before it are confirmed.
type heldRename struct {
	after uint64   // the commands written before it
	args  [][]byte // the command when it is not RENAME temp key (resp.Options.Restore), else nil
	temp  tempKey
	f     uint8
	exp   int64
}

// emit writes one command; a record's RENAME waits until the reader has confirmed the
// commands before it, and a SELECT until the RENAMEs held are sent.
func (m *massConduit) emit(cmd *resp.Command) error {
	if m.stop.Load() {
		return errStopped
	}
	if m.auto != nil {
		if took, err := m.autoEmit(cmd); took || err != nil {
			return err
		}
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
		if err := m.drain(); err != nil {
			return err
		}
	}
	if cmd.Temp != nil {
		if m.open == nil {
			m.open = &tempKey{db: cmd.DB, name: bytes.Clone(cmd.Temp), key: bytes.Clone(cmd.Key)}
		}
		if cmd.Last {
			h := heldRename{after: m.sent, temp: *m.open, f: f | flagRename, exp: cmd.ExpireAtMS}
			if !bytes.Equal(cmd.Args[0], rename) {
				for _, a := range cmd.Args {
					h.args = append(h.args, bytes.Clone(a))
				}
			}
			m.held = append(m.held, h)
			m.open = nil
			return m.release()
		}
	}
	if err := m.write(cmd.Args, f, cmd.Key, cmd.DB, cmd.ExpireAtMS, nil, 1); err != nil {
		return err
	}
	return m.release()
}

// write writes one command, which confirms n keys, and tells the reader about it.
func (m *massConduit) write(args [][]byte, f uint8, key []byte, db int, exp int64, temp *tempKey, n uint32) error {
	if m.sent%deadlineEvery == 0 {
		m.extend(m.conn.SetWriteDeadline, m.l.o.Timeout)
	}
	m.sent++
	m.cmd = resp.AppendCommand(m.cmd[:0], args...)
	if _, err := m.w.Write(m.cmd); err != nil {
		m.fail(fmt.Errorf("send commands: %w", err))
		return errStopped
	}
	c := m.cur
	c.flags = append(c.flags, f)
	c.keys = append(c.keys, key...)
	c.ends = append(c.ends, len(c.keys))
	c.exps = append(c.exps, exp)
	c.temps = append(c.temps, temp)
	c.dbs = append(c.dbs, int32(db))
	c.ns = append(c.ns, n)
	if len(c.flags) == chunkSize {
		return m.sendChunk()
	}
	return nil
}

// rename is the name of RENAME.
var rename = []byte("RENAME")

// release sends the RENAMEs held whose records the reader has confirmed.
func (m *massConduit) release() error {
	if len(m.held) == 0 {
		return nil
	}
	ok := m.okThrough.Load()
	i := 0
	for ; i < len(m.held) && m.held[i].after <= ok; i++ {
		h := &m.held[i]
		args := h.args
		if args == nil {
			m.args = append(m.args[:0], rename, h.temp.name, h.temp.key)
			args = m.args
		}
		if err := m.write(args, h.f, h.temp.key, h.temp.db, h.exp, &h.temp, 1); err != nil {
			m.held = m.held[i:]
			return err
		}
	}
	m.held = m.held[i:]
	if len(m.held) == 0 {
		m.held = nil // let the array go
	}
	return nil
}

// drain waits until the reader has confirmed every command written and sends the RENAMEs
// held; it returns errStopped once the load has failed.
func (m *massConduit) drain() error {
	if len(m.held) == 0 {
		return nil
	}
	if err := m.sendChunk(); err != nil {
		return err
	}
	for m.okThrough.Load() < m.sent {
		if m.stop.Load() {
			return errStopped
		}
		select {
		case <-m.progressed:
		case <-m.done:
			return errStopped
		}
	}
	return m.release()
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

// finish sends the RENAMEs held, the last chunk and the marker, waits for the reader, and
// removes the temporary keys of the records not renamed.
func (m *massConduit) finish() error {
	err := m.finishStream()
	var temps []tempKey
	for _, h := range m.held {
		temps = append(temps, h.temp)
	}
	if m.open != nil {
		temps = append(temps, *m.open)
	}
	temps = append(temps, m.unmoved...) // the reader is done
	err = m.l.removeTemps(m.ctx, m.addr, temps, err)
	return m.l.dropStale(m.ctx, m.addr, m.stale, err)
}

// finishStream sends the RENAMEs held, the last chunk and the marker, and waits for the
// reader.
func (m *massConduit) finishStream() error {
	if m.auto != nil {
		defer m.l.addAuto(m.auto)
		if !m.stop.Load() {
			_ = m.sendGathered(-1)
		}
	}
	if !m.stop.Load() {
		_ = m.drain()
	}
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
			kind, text, err := resp.ReadReply(m.r)
			if errors.Is(err, io.EOF) {
				return errors.New("the server closed the connection")
			}
			if err != nil {
				return err
			}
			switch {
			case kind == '-' && f&flagRename != 0 && isExpiredRename(resp.ReplyError(text), c.exps[k]):
				m.l.confirm(m.n, int(c.dbs[k]), true, c.exps[k])
				t := c.temps[k]
				m.stale = append(m.stale, tempKey{db: t.db, name: t.key})
			case kind == '-':
				if f&flagRename != 0 {
					m.unmoved = append(m.unmoved, *c.temps[k])
				}
				if m.replyErr == nil {
					var key []byte
					if f&flagNoKey == 0 {
						key = c.keys[c.start(k):c.ends[k]]
					}
					err := error(resp.ReplyError(text))
					if m.auto != nil {
						err = withAutoHint(err)
					}
					m.replyErr = keyError(key, m.addr, err)
					m.stop.Store(true)
				}
			case f&flagMSet != 0:
				m.l.confirmStrings(m.n, int(c.dbs[k]), uint64(c.ns[k]))
			case f&flagLast != 0:
				// Counted after an error too: the commands sent before the writer stopped are
				// applied, and the server holds exactly the keys confirmed.
				m.l.confirm(m.n, int(c.dbs[k]), f&flagExpires != 0, c.exps[k])
			}
			i++
			if m.replyErr == nil {
				m.okThrough.Store(i)
			}
		}
		m.pool.Put(c)
		select {
		case m.progressed <- struct{}{}:
		default:
		}
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
