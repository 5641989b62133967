package verify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/server"
)

// A Request is a verification as rdbgen verify's flags and arguments state it: a file
// ([File]), a live server ([Server]) or the directory of a cluster dataset ([Cluster]), and
// how. [Run] checks that its fields go together; its errors are worded in the flags' names.
type Request struct {
	// Args are the command's arguments: the file (none with Addr or URL), or with Cluster
	// the directory of the shard files.
	Args []string
	// Addr (HOST:PORT) or URL (redis://…) names a live server to check instead of a file.
	Addr, URL string
	// Password is the live server's password given apart from URL ($REDISCLI_AUTH, a
	// password file): a URL that holds one as well is an error.
	Password string
	// Manifest is the manifest to compare with; "" for the file's own, when it exists.
	Manifest string
	// Cluster verifies the directory of a cluster dataset's shard files.
	Cluster bool
	// For is the target of a managed service whose rules the file must meet (as
	// "elasticache-valkey-8.0"); "" for none.
	For string
	// Backend is how the server is run (see [Options.SetBackend]); "" when not given,
	// which is auto, and which a live server requires.
	Backend string
	// Server configures the server to start; its Backend is set from Backend.
	Server server.Options
	// Sample is the number of records to spot-check: 0 for none.
	Sample int
	// SampleSeed is the seed of the sample; nil for a random one ([RandomSeed]).
	SampleSeed *uint64
	// Progress, if not nil, receives the progress of the stages (see [Options.Progress]
	// and [Measure]).
	Progress func(record.Progress)
}

// A Result is what [Run] verified: a file's or a server's report, or a cluster's.
type Result struct {
	// Report is the report of a file or a live server; nil for a cluster.
	Report *Report
	// Cluster is the report of a cluster dataset; nil for a file or a server.
	Cluster *ClusterReport
	// ManifestPath is the manifest the file or the server was compared with; "" for none.
	ManifestPath string
}

// Run verifies what req names, once its arguments and options are checked. It returns the
// Result, nil when the verification stopped before a report, and the error that stopped
// it; a failed check is a Result that does not pass (see [Result.Verdict]).
func Run(ctx context.Context, req Request) (*Result, error) {
	if req.Cluster {
		return runCluster(ctx, req)
	}
	live := req.Addr != "" || req.URL != ""
	var path string
	switch n := len(req.Args); {
	case n > 1:
		return nil, fmt.Errorf("unexpected argument %q: verify takes one file", req.Args[1])
	case n == 1 && live:
		return nil, errors.New("give a file or --addr/--url, not both")
	case n == 1:
		path = req.Args[0]
	case !live:
		return nil, errors.New("no file to verify (rdbgen verify dump.rdb, or --addr HOST:PORT --manifest FILE)")
	case req.Addr != "" && req.URL != "":
		return nil, errors.New("give --addr or --url, not both")
	}
	opts, err := req.options()
	if err != nil {
		return nil, err
	}
	if opts.Server.Container != "" && (opts.Offline || opts.Server.Backend == server.BackendProcess) {
		return nil, fmt.Errorf("--container restarts a docker container: it does not go with --backend %s", req.Backend)
	}
	if live && (req.Backend != "" || opts.Server.Container != "") {
		return nil, errors.New("--addr and --url check a running server: --backend and --container do not apply")
	}
	res := &Result{}
	if res.ManifestPath, err = ReadManifest(req.Manifest, path, &opts); err != nil {
		return nil, err
	}
	if !live {
		res.Report, err = Dump(ctx, path, opts)
		return res.orNil(), err
	}
	if opts.Manifest == nil {
		return nil, errors.New("--addr and --url need --manifest: what the server must hold")
	}
	ro := &redis.Options{Addr: req.Addr}
	if req.URL != "" {
		if ro, err = redis.ParseURL(req.URL); err != nil {
			return nil, fmt.Errorf("--url: %w", err)
		}
	}
	if req.Password != "" {
		if ro.Password != "" {
			return nil, errors.New("the password of --url and another ($REDISCLI_AUTH or --password-file): give one")
		}
		ro.Password = req.Password
	}
	res.Report, err = Server(ctx, ro, opts)
	return res.orNil(), err
}

// runCluster verifies the cluster dataset of the directory req.Args names.
func runCluster(ctx context.Context, req Request) (*Result, error) {
	switch len(req.Args) {
	case 0:
		return nil, errors.New("--cluster needs the directory of the shard files (rdbgen verify --cluster dumps/)")
	case 1:
	default:
		return nil, fmt.Errorf("unexpected argument %q: verify --cluster takes one directory", req.Args[1])
	}
	for _, f := range []struct{ name, value string }{{"manifest", req.Manifest}, {"container", req.Server.Container}, {"addr", req.Addr}, {"url", req.URL}} {
		if f.value != "" {
			return nil, fmt.Errorf("--%s does not go with --cluster: each shard file has its manifest, and a fresh cluster is started", f.name)
		}
	}
	opts, err := req.options()
	if err != nil {
		return nil, err
	}
	rep, err := Cluster(ctx, req.Args[0], opts)
	if rep == nil {
		return nil, err
	}
	return &Result{Cluster: rep}, err
}

// options returns the Options of req: the sample, the server to start, the progress.
func (req Request) options() (Options, error) {
	opts := Options{Sample: req.Sample, Server: req.Server, Progress: req.Progress}
	if req.For != "" {
		svc, ok := rdb.LookupService(req.For)
		if !ok {
			return opts, fmt.Errorf("--for %s: no managed service (give one of %s)", req.For, strings.Join(rdb.ServiceTargets(), ", "))
		}
		opts.For = &svc
	}
	if opts.Sample < 0 {
		return opts, fmt.Errorf("--sample %d is negative", opts.Sample)
	}
	if opts.Sample == 0 {
		opts.Sample = -1 // none, in Options' terms
	}
	if req.SampleSeed != nil {
		opts.SampleSeed = *req.SampleSeed
	} else {
		opts.SampleSeed = RandomSeed()
	}
	backend := req.Backend
	if backend == "" {
		backend = string(server.BackendAuto)
	}
	return opts, opts.SetBackend(backend)
}

// orNil returns r, or nil when it holds no report.
func (r *Result) orNil() *Result {
	if r.Report == nil {
		return nil
	}
	return r
}

// JSON returns what rdbgen verify --json prints: the report, with the manifest's path for
// a file or a server.
func (r *Result) JSON() any {
	if r.Cluster != nil {
		return r.Cluster
	}
	return struct {
		Manifest string `json:"manifest,omitempty"`
		*Report
	}{r.ManifestPath, r.Report}
}

// WriteText writes the report for people (see [WriteText] and [WriteClusterText]).
func (r *Result) WriteText(w io.Writer) error {
	if r.Cluster != nil {
		return WriteClusterText(w, r.Cluster)
	}
	return WriteText(w, r.Report, r.ManifestPath)
}

// Verdict returns nil when every check passed, else an error "FAIL: " and the reason.
func (r *Result) Verdict() error {
	pass, reason := true, ""
	switch {
	case r.Cluster != nil:
		pass, reason = r.Cluster.Pass, r.Cluster.Reason
	case r.Report != nil:
		pass, reason = r.Report.Pass, r.Report.Reason
	}
	if !pass {
		return fmt.Errorf("FAIL: %s", reason)
	}
	return nil
}

// Measure returns what p, a progress report of [Options.Progress], counts, and its unit,
// as a progress bar draws it: bytes of the file, then of the load, then records checked.
func Measure(p record.Progress) (done, total int64, unit string) {
	switch Stage(p.Stage) {
	case StageServer:
		return int64(p.Keys), int64(p.Total), "keys checked"
	case StageLoad:
		return p.Bytes, p.TotalBytes, "bytes loaded"
	}
	return p.Bytes, p.TotalBytes, "bytes read"
}
