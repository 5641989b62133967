package main

import (
	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/output"
)

// report reports the run that wrote res: as JSON, as nothing (--quiet), or as a line for
// people, with extra, if not empty, added to it.
func (j *fileJob) report(res *output.Result, ic summary.ImportCounts, extra string) error {
	sum := summary.FromOutput(res, j.layout, j.shard, j.resp != nil, ic)
	return summary.Print(j.results, sum, j.asJSON, j.quiet, summary.Text(sum.Text(extra)))
}
