package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"reflect"
	"testing"
)

// exact is a Sink that notes every call with everything it was given, nil and empty
// slices told apart (%#v).
type exact struct{ calls []string }

func (e *exact) note(format string, a ...any) error {
	e.calls = append(e.calls, fmt.Sprintf(format, a...))
	return nil
}

func (e *exact) BeginDB(db int, c Counts) error { return e.note("db %d %#v", db, c) }
func (e *exact) Begin(h *Header) error {
	if len(h.Value) > 1024 { // a big value by its length and checksum
		c := *h
		c.Value = nil
		return e.note("begin %#v value of %d bytes crc %x", c, len(h.Value), crc32.ChecksumIEEE(h.Value))
	}
	return e.note("begin %#v", *h)
}
func (e *exact) Add(m *Member) error             { return e.note("add %#v", *m) }
func (e *exact) End(t *StreamTail) error         { return e.note("end %#v", t) }
func (e *exact) WriteFunction(code []byte) error { return e.note("function %#v", code) }
func (e *exact) WriteModuleAux(a *ModuleAux) error {
	return e.note("module aux %#v", *a)
}

// scribble passes each call on, then overwrites the bytes it passed, as a reader reusing its
// buffers does: what is behind it must have copied them.
type scribble struct{ Pass }

func wipe(bs ...[]byte) {
	for _, b := range bs {
		for i := range b {
			b[i] = '#'
		}
	}
}

func (s scribble) Begin(h *Header) error {
	err := s.Next.Begin(h)
	wipe(h.Key, h.Value)
	return err
}

func (s scribble) Add(m *Member) error {
	err := s.Next.Add(m)
	wipe(m.Name, m.Value)
	wipe(m.Fields...)
	return err
}

func (s scribble) End(t *StreamTail) error {
	err := s.Next.End(t)
	if t != nil {
		for _, g := range t.Groups {
			wipe(g.Name)
			for _, c := range g.Consumers {
				wipe(c.Name)
			}
			g.Pending[0].DeliveryCount = 99
		}
	}
	return err
}

func (s scribble) WriteFunction(code []byte) error {
	err := s.Next.WriteFunction(code)
	wipe(code)
	return err
}

func (s scribble) WriteModuleAux(a *ModuleAux) error {
	err := s.Next.WriteModuleAux(a)
	wipe(a.Value)
	return err
}

// pipeInput is a source of every kind of record and call, made anew on each call (scribble
// overwrites it): n strings in db 0 and db 3 around the rest, and a value of big bytes.
func pipeInput(n, big int) Records {
	var rs Records
	for i := range n {
		rs = append(rs, Record{Key: fmt.Appendf(nil, "key:%d", i), Value: fmt.Appendf(nil, "v%d", i), ExpireAtMS: int64(i % 3)})
	}
	group := StreamGroup{Name: []byte("g"), LastID: StreamID{Ms: 2}, EntriesRead: -1,
		Pending:   []StreamPending{{ID: StreamID{Ms: 1}, DeliveryTimeMS: 7, DeliveryCount: 2}},
		Consumers: []StreamConsumer{{Name: []byte("alice"), SeenTimeMS: 8, ActiveTimeMS: -1, Pending: []StreamID{{Ms: 1}}}}}
	rs = append(rs,
		Record{Key: []byte("empty"), Value: []byte{}},
		Record{Key: []byte("nil"), Value: nil},
		Record{Key: []byte{}, Value: []byte("empty key")},
		Record{Key: []byte("big"), Value: bytes.Repeat([]byte("b"), big)},
		Record{Key: []byte("h"), Type: Hash, ExpireAtMS: 9, Members: []Member{{Name: []byte("f"), Value: []byte("1"), ExpireAtMS: 5}, {Name: []byte("g"), Value: []byte{}}}},
		Record{Key: []byte("l"), Type: List, Members: []Member{{Name: []byte("e")}, {Name: []byte{}}}},
		Record{Key: []byte("z"), Type: ZSet, Members: []Member{{Name: []byte("m"), Score: -2.5}}},
		Record{Key: []byte("x"), Type: Stream, Members: []Member{
			{ID: StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}},
			{ID: StreamID{Ms: 2, Seq: 1}, Fields: [][]byte{}},
		}, Stream: StreamTail{Meta: StreamMeta{Length: 2, LastID: StreamID{Ms: 3}}, Groups: []StreamGroup{group}}},
		Record{Key: []byte("x0"), Type: Stream},
		Record{Key: []byte("m"), Type: Module, ModuleID: mtID, Value: []byte("\x02\x05\x00")},
	)
	for i := range n {
		rs = append(rs, Record{DB: 3, Key: fmt.Appendf(nil, "k%d", i), Value: []byte("x")})
	}
	return rs
}

// pipeCalls writes pipeInput(n, big), with a library and module AUX data before it, into
// sink.
func pipeCalls(sink Sink, n, big int) error {
	if err := sink.WriteFunction([]byte("#!lua name=lib\n")); err != nil {
		return err
	}
	if err := sink.WriteModuleAux(&ModuleAux{ModuleID: mtID, When: ModuleAuxBefore, Value: []byte("\x02\x01\x00")}); err != nil {
		return err
	}
	return pipeInput(n, big).WriteTo(context.Background(), sink)
}

// TestPipe: what passes through a Pipe reaches its Next exactly as it would directly, in
// order, copied (the caller overwrites its bytes after each call), across batches.
func TestPipe(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n, big int
	}{
		{"one of each", 1, 10},
		{"a batch of calls and one over", batchCalls, 0},
		{"batches of calls", 3*batchCalls + 7, 100},
		{"a value of a batch's bytes", 5, batchBytes},
		{"a value over the bytes a batch keeps", 5, maxKeptArena + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want, got exact
			if err := pipeCalls(&want, tc.n, tc.big); err != nil {
				t.Fatal(err)
			}
			p := NewPipe(&got)
			if err := pipeCalls(scribble{Pass{Next: p}}, tc.n, tc.big); err != nil {
				t.Fatal(err)
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if len(got.calls) != len(want.calls) {
				t.Fatalf("%d calls, want %d", len(got.calls), len(want.calls))
			}
			for i := range want.calls {
				if got.calls[i] != want.calls[i] {
					t.Fatalf("call %d:\n%.300s\nwant\n%.300s", i, got.calls[i], want.calls[i])
				}
			}
			if err := p.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			if err := p.Begin(&Header{Key: []byte("late")}); !errors.Is(err, errPipeClosed) {
				t.Errorf("Begin after Close: %v", err)
			}
		})
	}
}

// failAt is a Sink that fails at its key number at (counting from 1) with boom, and counts
// the calls it gets after that.
type failAt struct {
	Discard
	at, keys, after int
	boom            error
}

func (f *failAt) Begin(*Header) error {
	f.keys++
	switch {
	case f.keys == f.at:
		return f.boom
	case f.keys > f.at:
		f.after++
	}
	return nil
}

// refusing is a Sink that cannot carry libraries.
type refusing struct{ Discard }

func (refusing) WriteFunction(code []byte) error { return RefuseFunctions{}.WriteFunction(code) }

// TestPipeError: an error of Next comes back from a later call and from Close, and Next gets
// no call after it; an error of a call the Pipe passes on itself comes back from that call.
func TestPipeError(t *testing.T) {
	boom := errors.New("boom")
	for _, at := range []int{1, batchCalls, batchCalls + 1, 10 * batchCalls} {
		f := &failAt{at: at, boom: boom}
		p := NewPipe(f)
		err := pipeInput(20*batchCalls, 0).WriteTo(context.Background(), p)
		if cerr := p.Close(); !errors.Is(err, boom) || !errors.Is(cerr, boom) || f.after != 0 {
			t.Errorf("failing at key %d: WriteTo %v, Close %v, %d calls after", at, err, cerr, f.after)
		}
	}
	p := NewPipe(refusing{})
	if err := pipeCalls(p, 3, 0); !errors.Is(err, ErrFunctionsUnsupported) {
		t.Errorf("WriteFunction refused: %v", err)
	}
	if err := p.Begin(&Header{Key: []byte("k"), Type: String, Value: []byte("v")}); !errors.Is(err, ErrFunctionsUnsupported) {
		t.Errorf("after the refusal: %v", err)
	}
	if err := p.Close(); !errors.Is(err, ErrFunctionsUnsupported) {
		t.Errorf("Close after the refusal: %v", err)
	}
}

// TestPipeWait: a database waits for the records before it, so Next's error on them comes
// back from BeginDB.
func TestPipeWait(t *testing.T) {
	boom := errors.New("boom")
	f := &failAt{at: 2, boom: boom}
	p := NewPipe(f)
	for i := range 3 {
		if err := p.Begin(&Header{Key: []byte{byte(i)}, Type: String, Value: []byte("v")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.BeginDB(1, Counts{}); !errors.Is(err, boom) {
		t.Errorf("BeginDB after a failed key: %v", err)
	}
	if !reflect.DeepEqual([]int{f.keys, f.after}, []int{2, 0}) {
		t.Errorf("keys %d, after %d", f.keys, f.after)
	}
	if err := p.Close(); !errors.Is(err, boom) {
		t.Errorf("Close: %v", err)
	}
}
