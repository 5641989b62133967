package bar

import (
	"io"

	"github.com/schollz/progressbar/v3"

	"github.com/rdbgen/rdbgen/record"
)

// Stages draws a progress bar for each stage of a run in turn: a new stage (record.Progress's
// Stage) ends the bar of the one before.
type Stages struct {
	w     io.Writer
	quiet bool
	stage string
	max   int64
	bar   *progressbar.ProgressBar
	// Named describes each bar by its stage's name rather than by its unit.
	Named bool
	// measure returns the done and total of p, and the unit of its stage.
	measure func(p record.Progress) (done, total int64, unit string)
}

// NewStages returns the bars of a run on w, none when quiet or w is not a terminal; measure
// says what each stage counts.
func NewStages(w io.Writer, quiet bool, measure func(p record.Progress) (done, total int64, unit string)) *Stages {
	return &Stages{w: w, quiet: quiet, measure: measure}
}

// Update draws p. A stage whose total is not known yet (0) draws nothing.
func (s *Stages) Update(p record.Progress) {
	done, total, unit := s.measure(p)
	if total <= 0 {
		return
	}
	if p.Stage != s.stage {
		s.Finish()
		s.stage, s.max = p.Stage, total
		s.bar = New(s.w, total, unit, s.quiet)
		if s.Named && s.bar != nil {
			s.bar.Describe(p.Stage)
		}
	}
	if s.bar == nil {
		return
	}
	if total != s.max {
		s.max = total
		s.bar.ChangeMax64(total)
	}
	_ = s.bar.Set64(done)
}

// Finish ends the bar of the current stage.
func (s *Stages) Finish() {
	if s.bar != nil {
		_ = s.bar.Finish()
		s.bar = nil
	}
}
