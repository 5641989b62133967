package record

import (
	"errors"
	"sync/atomic"
)

// A Pipe is a Sink that passes every call on to Next from a goroutine of its own: the
// caller's goroutine (a reader parsing a file, say) goes on while Next (a writer) works on
// the records before, on another core. Records go across in batches, copied: the caller may
// reuse its buffers as the Sink contract allows. The calls reach Next in order, and Next is
// called from one goroutine at a time.
//
// An error of Next comes back from a later call (the first after the batch that met it is
// handed over) and from Close, which every Pipe needs: it passes on what is left and waits
// for Next. Databases, libraries and module AUX data wait for the records before them and
// are passed on from the caller's goroutine, so their errors come back from their own call.
type Pipe struct {
	next   Sink
	cur    *batch
	full   chan *batch // batches for the goroutine, in order
	free   chan *batch // batches it has passed on
	done   chan struct{}
	failed atomic.Pointer[error] // Next's first error
	err    error                 // the error the caller was given, sticky
	closed bool
	result error // what Close returned
}

// pipeBatches is the number of batches a Pipe has: one the caller fills while the goroutine
// passes on the others.
const pipeBatches = 3

// A batch is handed over when it holds this many calls or bytes.
const (
	batchCalls = 2048
	batchBytes = 256 << 10
)

// NewPipe returns a Pipe into next and starts its goroutine.
func NewPipe(next Sink) *Pipe {
	p := &Pipe{
		next: next,
		full: make(chan *batch, pipeBatches),
		free: make(chan *batch, pipeBatches),
		done: make(chan struct{}),
	}
	for range pipeBatches - 1 {
		p.free <- &batch{}
	}
	p.cur = &batch{}
	go p.run()
	return p
}

// run passes the batches on to Next until the Pipe closes; after Next's first error it
// drops them.
func (p *Pipe) run() {
	defer close(p.done)
	for b := range p.full {
		if p.failed.Load() == nil {
			if err := b.replay(p.next); err != nil {
				p.failed.Store(&err)
			}
		}
		b.reset()
		p.free <- b
	}
}

// fail returns the error to give the caller: Next's first, kept for every later call.
func (p *Pipe) fail() error {
	if p.err == nil {
		if e := p.failed.Load(); e != nil {
			p.err = *e
		}
	}
	return p.err
}

// handOver gives the goroutine the batch filled so far and takes an empty one.
func (p *Pipe) handOver() error {
	p.full <- p.cur
	p.cur = <-p.free
	return p.fail()
}

// wait hands the filled batch over and waits until Next has been given every call before.
func (p *Pipe) wait() error {
	if p.err != nil {
		return p.err
	}
	out := pipeBatches - 1 // the batches the goroutine holds or has handed back
	if len(p.cur.kinds) > 0 {
		p.full <- p.cur
		p.cur, out = nil, pipeBatches
	}
	held := make([]*batch, 0, pipeBatches)
	for len(held) < out {
		held = append(held, <-p.free)
	}
	if p.cur == nil {
		p.cur, held = held[0], held[1:]
	}
	for _, b := range held {
		p.free <- b
	}
	return p.fail()
}

// due reports whether the batch being filled is due to be handed over.
func (p *Pipe) due() bool {
	return len(p.cur.kinds) >= batchCalls || len(p.cur.arena) >= batchBytes
}

// BeginDB waits for the records before it, then passes the call on.
func (p *Pipe) BeginDB(db int, c Counts) error {
	if err := p.wait(); err != nil {
		return err
	}
	p.err = p.next.BeginDB(db, c)
	return p.err
}

// Begin copies h into the batch.
func (p *Pipe) Begin(h *Header) error {
	if p.err != nil {
		return p.err
	}
	p.cur.begin(h)
	if p.due() {
		return p.handOver()
	}
	return nil
}

// Add copies m into the batch.
func (p *Pipe) Add(m *Member) error {
	if p.err != nil {
		return p.err
	}
	p.cur.add(m)
	if p.due() {
		return p.handOver()
	}
	return nil
}

// End copies t into the batch.
func (p *Pipe) End(t *StreamTail) error {
	if p.err != nil {
		return p.err
	}
	p.cur.end(t)
	if p.due() {
		return p.handOver()
	}
	return nil
}

// WriteFunction waits for the records before it, then passes the call on.
func (p *Pipe) WriteFunction(code []byte) error {
	if err := p.wait(); err != nil {
		return err
	}
	p.err = p.next.WriteFunction(code)
	return p.err
}

// WriteModuleAux waits for the records before it, then passes the call on.
func (p *Pipe) WriteModuleAux(a *ModuleAux) error {
	if err := p.wait(); err != nil {
		return err
	}
	p.err = p.next.WriteModuleAux(a)
	return p.err
}

// Close passes on what is left, stops the goroutine and returns Next's first error, or
// the error of a call the Pipe passed on itself. Later calls return the same.
func (p *Pipe) Close() error {
	if p.closed {
		return p.result
	}
	p.closed = true
	if len(p.cur.kinds) > 0 && p.err == nil {
		p.full <- p.cur
	}
	p.cur = nil
	close(p.full)
	<-p.done
	p.result = p.fail()
	if p.err == nil {
		p.err = errPipeClosed
	}
	return p.result
}

// errPipeClosed is what a call after Close returns.
var errPipeClosed = errors.New("record: call on a closed Pipe")
