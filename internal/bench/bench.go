// Package bench measures, side by side on one machine, the ways of getting a
// dataset (the built-in one, a spec file: any record.Source that knows its size)
// into Redis: the online loaders of package loader, each against a fresh empty
// server, redis-cli --pipe fed the dataset's RESP stream, and the snapshot path
// (write the RDB file, start a server on it). Every row is checked with the
// server's key count: a row whose count is wrong is marked failed, never shown
// as fast.
//
// The package never prints: progress goes to [Options.Progress], and the
// report is written by [WriteTable], [WriteCSV], [WriteJSON] and
// [WriteReport].
package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/loader"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
	"github.com/rdbgen/rdbgen/server"
)

// Names of the snapshot rows.
const (
	SnapshotGenerate = "snapshot generate" // writing the file
	SnapshotLoad     = "snapshot load"     // starting a server on it until it has loaded
	SnapshotTotal    = "snapshot total"    // both: the time to a ready server
)

// Stage is what a run is doing.
type Stage string

// The stages of a run.
const (
	StageStart    Stage = "starting redis"
	StageLoad     Stage = "loading"
	StageGenerate Stage = "generating"
	StageRestart  Stage = "starting redis on the file"
)

// A benchRun is one run of a row, as its progress names it.
type benchRun struct {
	row       string // the row's method and workers/batch, e.g. "parallel 50"
	run, runs int    // this run of the row, from 1, and the number of runs
}

// RunStage returns the record.Progress.Stage of stage in run (from 1) of runs of row, e.g.
// "parallel 50 (run 1/3): loading".
func RunStage(row string, run, runs int, stage Stage) string {
	return fmt.Sprintf("%s (run %d/%d): %s", row, run, runs, stage)
}

// Row is one line of the report.
type Row struct {
	// Method is a loader method, or one of the snapshot rows.
	Method  string `json:"method"`
	Workers int    `json:"workers,omitempty"`
	Batch   int    `json:"batch,omitempty"`
	Keys    uint64 `json:"keys"` // keys in the dataset
	// DBSize is what DBSIZE said at the end of the last run.
	DBSize int64 `json:"dbsize"`
	// Seconds is the median of Runs: for an online row, the time from the
	// first command to the last reply; for the snapshot rows, the time to
	// write the file, the time from starting the server to its answering with
	// the data loaded, and their sum.
	Seconds float64   `json:"seconds"`
	Runs    []float64 `json:"runs"`
	// ServerSeconds, for the snapshot load row only, is the median of the
	// load times the server itself logged ("DB loaded from disk"): Seconds
	// less the server's start-up and the wait between polls.
	ServerSeconds float64 `json:"server_seconds,omitempty"`
	// KeysPerSecond is Keys/Seconds, and VsSnapshot is Seconds divided by
	// the snapshot's total; both 0 for a failed row (VsSnapshot also when
	// the snapshot rows are not run or failed).
	KeysPerSecond float64 `json:"keys_per_second"`
	VsSnapshot    float64 `json:"vs_snapshot"`
	// Error tells why the row failed; "" when every run loaded every key.
	Error string `json:"error,omitempty"`
}

// Failed tells whether the row failed.
func (r Row) Failed() bool { return r.Error != "" }

// Label returns the row's method with its workers and batch where they can
// vary: "parallel 50", "pipeline 1/1000", "mass", "snapshot load".
func (r Row) Label() string {
	if r.Method == string(loader.Parallel) || r.Method == string(loader.Pipeline) {
		return r.Method + " " + r.WorkersBatch()
	}
	return r.Method
}

// WorkersBatch returns "50" for 50 workers, "1/1000" with a batch of 1000,
// and "" for the snapshot rows.
func (r Row) WorkersBatch() string {
	switch {
	case r.Workers == 0:
		return ""
	case r.Batch > 1:
		return fmt.Sprintf("%d/%d", r.Workers, r.Batch)
	}
	return fmt.Sprint(r.Workers)
}

// Report is the outcome of a bench.
type Report struct {
	// Dataset is the built-in dataset measured, nil for another source.
	Dataset *dataset.Config `json:"dataset"`
	// Input describes the source, as Options.Input gives it.
	Input string `json:"input,omitempty"`
	// Keys is the number of keys of the source.
	Keys      uint64         `json:"keys"`
	Backend   server.Backend `json:"backend"`
	Server    string         `json:"server"` // e.g. "redis 7.0.15"
	Repeat    int            `json:"repeat"`
	StartedAt time.Time      `json:"started_at"`
	Rows      []Row          `json:"rows"`
}

// Failed returns the number of rows that failed.
func (r *Report) Failed() int {
	n := 0
	for _, row := range r.Rows {
		if row.Failed() {
			n++
		}
	}
	return n
}

// Run measures the rows opts selects, loading src, which must know its size
// (record.Sizer) and give the same records each time it is written. A row that
// fails (an error, a wrong key count) is reported as failed; Run itself fails
// for bad options, a server that cannot start, a file that cannot be written,
// or when ctx is cancelled.
func Run(ctx context.Context, src record.Source, opts Options) (*Report, error) {
	sized, ok := src.(record.Sizer)
	if !ok {
		return nil, fmt.Errorf("%w: the source does not know its size", ErrInvalidOption)
	}
	if v, ok := src.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	d, _ := src.(*dataset.Config)
	n := sized.Len()
	b := &bencher{src: src, n: n, o: o, dir: o.Dir}
	if b.dir == "" {
		if b.dir, err = os.MkdirTemp("", "rdbgen-bench-"); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer os.RemoveAll(b.dir)
	}
	b.empty = filepath.Join(b.dir, "empty.rdb")
	if _, err := b.generate(ctx, b.empty, &dataset.Config{}, nil); err != nil {
		return nil, err
	}

	report := &Report{Dataset: d, Input: o.Input, Keys: n, Repeat: o.Repeat, StartedAt: time.Now().UTC()}
	specs := o.specs()
	online := make([][]measurement, len(specs))
	var gen, load, total, piped []measurement
	snapshot := slices.Contains(o.Methods, Snapshot)
	pipe := slices.Contains(o.Methods, CLIPipe)
	for run := 1; run <= o.Repeat; run++ {
		for i, s := range specs {
			m, err := b.online(ctx, s, benchRun{row: specRow(s, n).Label(), run: run, runs: o.Repeat})
			if err != nil {
				return nil, err
			}
			online[i] = append(online[i], m)
		}
		if pipe {
			m, err := b.pipe(ctx, benchRun{row: CLIPipe, run: run, runs: o.Repeat})
			if err != nil {
				return nil, err
			}
			piped = append(piped, m)
		}
		if snapshot {
			g, l, err := b.snapshot(ctx, benchRun{row: Snapshot, run: run, runs: o.Repeat})
			if err != nil {
				return nil, err
			}
			gen, load = append(gen, g), append(load, l)
			total = append(total, measurement{seconds: g.seconds + l.seconds, dbsize: l.dbsize, err: l.err})
		}
	}
	report.Backend, report.Server = b.backend, b.server

	for i, s := range specs {
		report.Rows = append(report.Rows, summarise(specRow(s, n), online[i]))
	}
	if pipe {
		report.Rows = append(report.Rows, summarise(Row{Method: CLIPipe, Workers: 1, Keys: n}, piped))
	}
	if snapshot {
		report.Rows = append(report.Rows,
			summarise(Row{Method: SnapshotGenerate, Keys: n}, gen),
			summarise(Row{Method: SnapshotLoad, Keys: n}, load),
			summarise(Row{Method: SnapshotTotal, Keys: n}, total))
		ref := report.Rows[len(report.Rows)-1]
		for i := range report.Rows {
			if r := &report.Rows[i]; !r.Failed() && !ref.Failed() && ref.Seconds > 0 {
				r.VsSnapshot = r.Seconds / ref.Seconds
			}
		}
	}
	return report, nil
}

// specRow returns the empty row of an online spec of n keys.
func specRow(s spec, n uint64) Row {
	return Row{Method: string(s.method), Workers: s.workers, Batch: s.batch, Keys: n}
}

// measurement is one run of a row.
type measurement struct {
	seconds float64
	server  float64 // the load time the server logged, or 0
	dbsize  int64
	err     error // why the run failed, or nil
}

// summarise fills in a row from its runs: the median time, the last DBSIZE,
// and the first run's failure.
func summarise(r Row, runs []measurement) Row {
	var server []float64
	for i, m := range runs {
		r.Runs = append(r.Runs, m.seconds)
		if m.server > 0 {
			server = append(server, m.server)
		}
		r.DBSize = m.dbsize
		if m.err != nil && r.Error == "" {
			r.Error = m.err.Error()
			if len(runs) > 1 {
				r.Error = fmt.Sprintf("run %d: %v", i+1, m.err)
			}
		}
	}
	r.Seconds = median(r.Runs)
	r.ServerSeconds = median(server)
	if !r.Failed() && r.Seconds > 0 {
		r.KeysPerSecond = float64(r.Keys) / r.Seconds
	}
	return r
}

// median returns the median of xs, or 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// bencher runs the rows of one Run.
type bencher struct {
	src     record.Source
	n       uint64 // keys of src
	o       Options
	dir     string
	empty   string         // an RDB file without keys, to start empty servers on
	backend server.Backend // the backend of the servers started
	server  string         // the version of the first server started
	version resp.Version   // the same, for the RESP stream
	resp    string         // the RESP stream's file, once written
}

// online runs an online row once, against a fresh empty server.
func (b *bencher) online(ctx context.Context, s spec, p benchRun) (measurement, error) {
	b.progress(p, StageStart, 0)
	inst, err := b.start(ctx, b.empty)
	if err != nil {
		return measurement{}, err
	}
	defer inst.Close(context.WithoutCancel(ctx))
	b.progress(p, StageLoad, 0)
	res, err := loader.Load(ctx, b.src, loader.Options{
		Addr:     inst.Addr,
		Method:   s.method,
		Workers:  s.workers,
		Batch:    s.batch,
		Progress: func(lp record.Progress) { b.progress(p, StageLoad, lp.Keys) },
	})
	if ctx.Err() != nil {
		return measurement{}, ctx.Err()
	}
	m := measurement{seconds: res.Duration.Seconds(), err: err}
	m.dbsize, err = b.check(ctx, inst)
	if m.err == nil {
		m.err = err
	}
	return m, nil
}

// snapshot writes the dataset's file and starts a fresh server on it.
func (b *bencher) snapshot(ctx context.Context, p benchRun) (gen, load measurement, err error) {
	path := filepath.Join(b.dir, "dump.rdb")
	b.progress(p, StageGenerate, 0)
	took, err := b.generate(ctx, path, b.src, func(gp record.Progress) { b.progress(p, StageGenerate, gp.Keys) })
	if err != nil {
		return gen, load, err
	}
	gen.seconds = took.Seconds()
	b.progress(p, StageRestart, 0)
	inst, err := b.start(ctx, path)
	if errors.Is(err, server.ErrLoadRefused) {
		gen.err, load.err = err, err
		return gen, load, nil
	}
	if err != nil {
		return gen, load, err
	}
	defer inst.Close(context.WithoutCancel(ctx))
	load.seconds = inst.LoadDuration.Seconds()
	load.server = inst.ServerLoadDuration.Seconds()
	load.dbsize, load.err = b.check(ctx, inst)
	gen.dbsize, gen.err = load.dbsize, load.err // the file is only as good as what the server found in it
	return gen, load, nil
}

// generate writes src to a new file at path and syncs it, as rdbgen generate
// does, and returns the time taken.
func (b *bencher) generate(ctx context.Context, path string, src record.Source, progress func(record.Progress)) (time.Duration, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("bench: %w", err)
	}
	defer f.Close()
	start := time.Now()
	_, err = output.Write(ctx, f, src, output.Options{Progress: progress})
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return 0, fmt.Errorf("bench: write %s: %w", path, err)
	}
	took := time.Since(start)
	return took, f.Close()
}

// start starts a server on the dump file, and notes the backend and version
// of the first one.
func (b *bencher) start(ctx context.Context, dump string) (*server.Instance, error) {
	inst, err := server.Start(ctx, dump, b.o.Server)
	if err != nil {
		return nil, err
	}
	if b.server == "" {
		b.backend = inst.Backend
		info, err := inst.Client().InfoMap(ctx, "server").Result()
		if err == nil {
			b.server = "redis " + info["Server"]["redis_version"]
			b.version, _ = resp.ParseVersion(info["Server"]["redis_version"])
		}
	}
	return inst, nil
}

// check returns the number of keys the server holds, over every database, and
// an error when it is not the source's.
func (b *bencher) check(ctx context.Context, inst *server.Instance) (int64, error) {
	c := redis.NewClient(&redis.Options{Addr: inst.Addr})
	defer c.Close()
	info, err := c.InfoMap(ctx, "keyspace").Result()
	if err != nil {
		return 0, fmt.Errorf("INFO keyspace: %w", err)
	}
	var n int64
	for _, line := range info["Keyspace"] {
		// db0:keys=1,expires=0,avg_ttl=0
		keys, _, _ := strings.Cut(strings.TrimPrefix(line, "keys="), ",")
		k, err := strconv.ParseInt(keys, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("INFO keyspace: %q", line)
		}
		n += k
	}
	if uint64(n) != b.n {
		return n, fmt.Errorf("%d keys, want %d", n, b.n)
	}
	return n, nil
}

// progress reports a stage of a run.
func (b *bencher) progress(p benchRun, stage Stage, keys uint64) {
	if b.o.Progress != nil {
		b.o.Progress(record.Progress{Stage: RunStage(p.row, p.run, p.runs, stage), Keys: keys, Total: b.n})
	}
}
