// Package chart draws the bench's bar chart with gonum.org/v1/plot, the one
// outside dependency it wraps. It knows nothing of the bench: it draws
// labelled bars.
package chart

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Bar is one horizontal bar.
type Bar struct {
	Label string  // name on the axis, e.g. "parallel 50"
	Value float64 // length; 0 draws no bar
	Note  string  // drawn after the bar, e.g. "1.2M keys/s"
	// Highlight draws the bar in the second colour, to set a group apart.
	Highlight bool
}

// Chart is a horizontal bar chart, its bars top to bottom.
type Chart struct {
	Title  string
	XLabel string
	Bars   []Bar
}

// Size of the picture: a fixed width, and a height that grows with the bars.
const (
	width     = 9 * vg.Inch
	barHeight = 0.4 * vg.Inch
	margins   = 1.2 * vg.Inch
)

// The colours of the bars.
var (
	plainColor     = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff} // blue
	highlightColor = color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff} // orange
)

// shortTicks labels the default ticks with short numbers: 500k, 1.5M.
type shortTicks struct{}

// Ticks returns the default ticks between lo and hi, relabelled.
func (shortTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = Short(ticks[i].Value)
		}
	}
	return ticks
}

// Short renders a number with at most three significant digits and a k, M or
// G suffix: 950, 12.3k, 4.56M.
func Short(v float64) string {
	units := []string{"", "k", "M", "G"}
	for i, suffix := range units {
		// The smallest unit that keeps the rounded number under 1000.
		if v < 999.5 || i == len(units)-1 {
			decimals := 0
			switch {
			case v < 9.995:
				decimals = 2
			case v < 99.95:
				decimals = 1
			}
			s := strconv.FormatFloat(v, 'f', decimals, 64)
			if decimals > 0 {
				s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
			}
			return s + suffix
		}
		v /= 1000
	}
	panic("unreachable")
}

// WritePNG draws the chart as a PNG image to w.
func (c *Chart) WritePNG(w io.Writer) error {
	if len(c.Bars) == 0 {
		return errors.New("draw chart: no bars")
	}
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.X.Min = 0

	// gonum draws the first value at the bottom: reverse, so the first bar is
	// on top. Each colour is a bar chart of its own, with zeros for the bars
	// of the other colour.
	n := len(c.Bars)
	plain, highlit := make(plotter.Values, n), make(plotter.Values, n)
	labels := make([]string, n)
	notes := plotter.XYLabels{XYs: make(plotter.XYs, n), Labels: make([]string, n)}
	maxValue := 0.0
	for i, b := range c.Bars {
		j := n - 1 - i
		if b.Highlight {
			highlit[j] = b.Value
		} else {
			plain[j] = b.Value
		}
		labels[j] = b.Label
		notes.XYs[j] = plotter.XY{X: b.Value, Y: float64(j)}
		notes.Labels[j] = " " + b.Note
		maxValue = max(maxValue, b.Value)
	}
	for _, group := range []struct {
		values plotter.Values
		color  color.Color
	}{{plain, plainColor}, {highlit, highlightColor}} {
		bars, err := plotter.NewBarChart(group.values, barHeight*0.7)
		if err != nil {
			return fmt.Errorf("draw chart: %w", err)
		}
		bars.Horizontal = true
		bars.LineStyle.Width = 0
		bars.Color = group.color
		p.Add(bars)
	}
	text, err := plotter.NewLabels(notes)
	if err != nil {
		return fmt.Errorf("draw chart: %w", err)
	}
	for i := range text.TextStyle {
		text.TextStyle[i].YAlign = -0.5 // centred on the bar
	}
	p.Add(text)
	p.NominalY(labels...)
	// Room on the right for the longest bar's note.
	p.X.Max = max(maxValue, 1) * 1.3
	p.X.Tick.Marker = shortTicks{}

	wt, err := p.WriterTo(width, margins+barHeight*vg.Length(n), "png")
	if err != nil {
		return fmt.Errorf("draw chart: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("write chart: %w", err)
	}
	return nil
}
