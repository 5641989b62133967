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
	"math"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Mass insertion, the way redis-cli --pipe does it: one goroutine writes the
// SETs as fast as the socket takes them and ends the stream with ECHO of a
// random marker; another reads the replies as they come, counts the OKs, and
// knows that every reply has arrived when the marker comes back.

// massBuffer is the size of the connection's read and write buffers.
const massBuffer = 64 << 10

// deadlineEvery is how many commands or replies pass between extensions of a
// connection's deadlines.
const deadlineEvery = 256

// mass loads d through one raw RESP connection.
func (l *load) mass(ctx context.Context) (time.Duration, error) {
	conn, err := l.connect(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	s := &massStream{load: l, conn: conn}
	s.sent.Store(math.MaxUint64)
	defer context.AfterFunc(ctx, func() { s.fail(ctx.Err()) })()

	r := bufio.NewReaderSize(conn, massBuffer)
	w := bufio.NewWriterSize(conn, massBuffer)
	if err := s.handshake(r, w); err != nil {
		return 0, err
	}
	var m [20]byte
	_, _ = rand.Read(m[:])
	s.marker = []byte(hex.EncodeToString(m[:]))

	start := time.Now()
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := s.write(w); err != nil {
			s.fail(fmt.Errorf("send commands: %w", err))
		}
	})
	if err := s.read(r); err != nil {
		s.fail(fmt.Errorf("read replies: %w", err))
	}
	took := time.Since(start)
	wg.Wait()
	if s.replyErr != nil {
		return took, s.replyErr // the server's own words explain more than a lost connection
	}
	return took, s.err
}

// connect dials the server, over TLS when configured.
func (l *load) connect(ctx context.Context) (net.Conn, error) {
	conn, err := l.dial(ctx)
	if err != nil || l.o.TLSConfig == nil {
		return conn, err
	}
	cfg := l.o.TLSConfig
	if cfg.ServerName == "" && !cfg.InsecureSkipVerify {
		cfg = cfg.Clone()
		cfg.ServerName, _, _ = net.SplitHostPort(l.o.Addr)
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

// handshake authenticates, selects the dataset's database and pings, in one
// round trip, and returns the first error.
func (s *massStream) handshake(r *bufio.Reader, w *bufio.Writer) error {
	l := s.load
	var cmds []byte
	var want []string
	if l.o.Password != "" {
		if l.o.Username != "" {
			cmds = appendCommand(cmds, []byte("AUTH"), []byte(l.o.Username), []byte(l.o.Password))
		} else {
			cmds = appendCommand(cmds, []byte("AUTH"), []byte(l.o.Password))
		}
		want = append(want, "OK")
	}
	if l.d.DB != 0 {
		cmds = appendCommand(cmds, []byte("SELECT"), strconv.AppendInt(nil, int64(l.d.DB), 10))
		want = append(want, "OK")
	}
	cmds = appendCommand(cmds, []byte("PING"))
	want = append(want, "PONG")

	s.extend(s.conn.SetDeadline, l.o.DialTimeout)
	if _, err := w.Write(cmds); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	var first error
	for _, reply := range want {
		if err := expectOK(r, reply); err != nil && first == nil {
			first = fmt.Errorf("connect: %w", err)
		}
	}
	return first
}

// massStream is the state a mass load's writer and reader share.
type massStream struct {
	*load
	conn   net.Conn
	marker []byte

	stop atomic.Bool   // set on the first error reply: the writer sends no more SETs
	sent atomic.Uint64 // SETs sent, stored before the marker; MaxUint64 until then

	replyErr error // the first error reply; the reader's alone

	mu   sync.Mutex // guards the connection's deadlines and err
	err  error      // the first failure of the connection or the context
	dead bool       // set by fail: the deadlines stay in the past
}

// fail records err, if it is the first failure, and ends the connection's
// reads and writes at once.
func (s *massStream) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
	s.dead = true
	_ = s.conn.SetDeadline(time.Unix(1, 0))
}

// extend moves a deadline of the connection to d from now, unless the
// stream has failed.
func (s *massStream) extend(set func(time.Time) error, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dead {
		_ = set(time.Now().Add(d))
	}
}

// write sends a SET per record until the end or the first error reply, then
// the ECHO marker.
func (s *massStream) write(w *bufio.Writer) error {
	var cmd []byte
	var n uint64
	for c := s.d.Cursor(); c.Next() && !s.stop.Load(); n++ {
		if n%deadlineEvery == 0 {
			s.extend(s.conn.SetWriteDeadline, s.o.Timeout)
		}
		cmd = s.appendSet(cmd[:0], c.Key(), c.Value(), c.ExpireAtMS())
		if _, err := w.Write(cmd); err != nil {
			return err
		}
	}
	s.sent.Store(n)
	s.extend(s.conn.SetWriteDeadline, s.o.Timeout)
	if _, err := w.Write(appendCommand(cmd[:0], []byte("ECHO"), s.marker)); err != nil {
		return err
	}
	return w.Flush()
}

// appendSet appends the SET command of one record.
func (s *massStream) appendSet(dst, key, value []byte, expireAt int64) []byte {
	if expireAt == 0 {
		dst = append(dst, "*3\r\n$3\r\nSET\r\n"...)
		return appendBulk(appendBulk(dst, key), value)
	}
	opt, at := s.expiryArgs(expireAt)
	var num [20]byte
	dst = append(dst, "*5\r\n$3\r\nSET\r\n"...)
	dst = appendBulk(appendBulk(dst, key), value)
	return appendBulk(appendBulk(dst, []byte(opt)), strconv.AppendInt(num[:0], at, 10))
}

// read reads the replies of the SETs, in order, until the marker's.
func (s *massStream) read(r *bufio.Reader) error {
	for i := uint64(0); ; i++ {
		if i%deadlineEvery == 0 {
			s.extend(s.conn.SetReadDeadline, s.o.Timeout)
		}
		kind, text, err := readReply(r)
		if errors.Is(err, io.EOF) {
			return errors.New("the server closed the connection")
		}
		if err != nil {
			return err
		}
		if i >= s.sent.Load() { // the marker's reply
			if kind != '$' || !bytes.Equal(text, s.marker) {
				return fmt.Errorf("%w: ECHO replied %c%s", errProtocol, kind, text)
			}
			return nil
		}
		switch {
		case kind == '+' && string(text) == "OK":
			s.confirmed.Add(1)
		case kind == '-':
			if s.replyErr == nil {
				s.replyErr = fmt.Errorf("set key %q: %w", s.d.AppendKey(nil, i), s.hint(replyError(text)))
				s.stop.Store(true)
			}
		default:
			return fmt.Errorf("%w: SET replied %c%s", errProtocol, kind, text)
		}
	}
}
