package main

import (
	"io"

	"github.com/rdbgen/rdbgen/internal/summary"
	"github.com/rdbgen/rdbgen/output"
)

// report reports the run that wrote res: as JSON, as nothing (--quiet), or as a line for
// people, with extra, if not empty, added to it.
func (j *fileJob) report(res *output.Result, ic summary.ImportCounts, extra string) error {
	sum := summary.FromOutput(res, j.layout, j.shard, j.resp != nil, ic)
	switch {
	case j.asJSON:
		return printJSON(j.results, sum)
	case j.quiet:
		return nil
	}
	_, err := io.WriteString(j.results, sum.Text(extra))
	return err
}
