// Package plot holds the short chart calls of the project's notebooks: grouped bars,
// histograms, line charts, counts and bars with intervals. The drawing is gonum's
// (gonum.org/v1/plot); this package only picks the plotters, the colours and the size, and
// returns a complete SVG document that GoNB shows with gonbui.DisplaySVG and that any browser
// opens as a file.
package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is a named list of values: one bar per label, or one y value per x.
type Series struct {
	Name   string
	Values []float64
}

// Chart size; charts with many labels grow downwards by labelGrowth per character of the
// longest label, so labels written vertically keep the plot area's height.
const (
	width       = 16 * vg.Centimeter
	height      = 8 * vg.Centimeter
	labelGrowth = 0.18 * vg.Centimeter
	// verticalLabels is the number of bar labels from which they are written vertically.
	verticalLabels = 13
)

// palette is a colour-blind-safe qualitative palette (Okabe-Ito).
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, {0xE6, 0x9F, 0x00, 0xff}, {0x00, 0x9E, 0x73, 0xff}, {0xD5, 0x5E, 0x00, 0xff},
	{0xCC, 0x79, 0xA7, 0xff}, {0x56, 0xB4, 0xE9, 0xff}, {0xF0, 0xE4, 0x42, 0xff}, {0x00, 0x00, 0x00, 0xff},
}

// Colour returns the i-th palette colour.
func Colour(i int) color.Color { return palette[i%len(palette)] }

// newPlot starts a chart with a title and axis labels.
func newPlot(title, xlabel, ylabel string) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.Top = true
	for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Font.Variant = "Sans"
	}
	return p
}

// render writes p as an <svg> element of the chart size, extra taller. The XML prolog is left
// out, as the element is shown inside HTML (notebook outputs), and the font gets the
// metric-compatible fallbacks a browser without Liberation Sans should use.
func render(p *gplot.Plot, extra vg.Length) string {
	w, err := p.WriterTo(width, height+extra, "svg")
	if err != nil { // only an unknown format fails, and "svg" is gonum's own
		panic(err)
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil { // a bytes.Buffer does not fail
		panic(err)
	}
	svg := b.String()
	if i := strings.Index(svg, "<svg"); i > 0 {
		svg = svg[i:]
	}
	return strings.ReplaceAll(svg, "font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
}

// must returns v, or panics on err: the plotters below fail only on NaN or infinite values,
// which the callers replace first, or on a non-positive bar width, which barWidth never gives.
func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("plot: %v", err))
	}
	return v
}

// finite returns vs with NaN and infinite values set to 0 (a bar of zero height, not drawn).
func finite(vs []float64, n int) plotter.Values {
	out := make(plotter.Values, n)
	for i := range out {
		if i < len(vs) && finiteAll(vs[i]) {
			out[i] = vs[i]
		}
	}
	return out
}

// barWidth shares 80% of the plot area's width (the chart less about 2 cm of axis) between n
// groups of k bars.
func barWidth(n, k int) vg.Length {
	return (width - 2*vg.Centimeter) * 0.8 / vg.Length(max(n, 1)*max(k, 1))
}

// nominal labels the x axis with labels, vertically when there are many, and returns how much
// taller the chart must be to keep its plot area.
func nominal(p *gplot.Plot, labels []string) vg.Length {
	if len(labels) == 0 {
		return 0
	}
	p.NominalX(labels...)
	if len(labels) < verticalLabels {
		return 0
	}
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	longest := 0
	for _, l := range labels {
		longest = max(longest, len(l))
	}
	return vg.Length(longest) * labelGrowth
}

// Bars draws a grouped bar chart: one group per label, one bar per series in each group. A
// NaN value draws no bar.
func Bars(title, ylabel string, labels []string, series ...Series) string {
	return render(barsPlot(title, ylabel, labels, series))
}

func barsPlot(title, ylabel string, labels []string, series []Series) (*gplot.Plot, vg.Length) {
	p := newPlot(title, "", ylabel)
	p.Add(plotter.NewGrid())
	w := barWidth(len(labels), len(series))
	for i, s := range series {
		b := must(plotter.NewBarChart(finite(s.Values, len(labels)), w))
		b.Color = Colour(i)
		b.LineStyle.Width = 0
		b.Offset = (vg.Length(i) - vg.Length(len(series)-1)/2) * w
		p.Add(b)
		if len(series) > 1 {
			p.Legend.Add(s.Name, b)
		}
	}
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	p.Y.Min = math.Min(p.Y.Min, 0)
	p.Y.Max = math.Max(p.Y.Max, 0)
	return p, nominal(p, labels)
}

// Histogram counts the values into bins equal-width bins between their minimum and maximum and
// draws the counts. NaN and infinite values are left out.
func Histogram(title, xlabel string, values []float64, bins int) string {
	return render(histogramPlot(title, xlabel, values, bins), 0)
}

func histogramPlot(title, xlabel string, values []float64, bins int) *gplot.Plot {
	p := newPlot(title, xlabel, "count")
	p.Add(plotter.NewGrid())
	var vs plotter.Values
	for _, v := range values {
		if finiteAll(v) {
			vs = append(vs, v)
		}
	}
	if len(vs) > 0 && bins > 0 {
		h := must(plotter.NewHist(vs, bins))
		h.FillColor = Colour(0)
		h.LineStyle.Width = 0
		p.Add(h)
	}
	return p
}

// Lines draws one line per series over the shared x values; NaN values are left out.
func Lines(title, xlabel, ylabel string, x []float64, series ...Series) string {
	p := newPlot(title, xlabel, ylabel)
	p.Add(plotter.NewGrid())
	for i, s := range series {
		var pts plotter.XYs
		for j, v := range s.Values {
			if j < len(x) && finiteAll(x[j], v) {
				pts = append(pts, plotter.XY{X: x[j], Y: v})
			}
		}
		l := must(plotter.NewLine(pts))
		l.Color = Colour(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		if len(series) > 1 {
			p.Legend.Add(s.Name, l)
		}
	}
	return render(p, 0)
}

// Counts draws how often each whole number occurs in values (bids, prices): one bar per
// number from the smallest to the largest, so gaps show as empty slots.
func Counts(title, xlabel string, values []float64) string {
	return render(countsPlot(title, xlabel, values))
}

func countsPlot(title, xlabel string, values []float64) (*gplot.Plot, vg.Length) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if finiteAll(v) {
			lo, hi = math.Min(lo, math.Round(v)), math.Max(hi, math.Round(v))
		}
	}
	if math.IsInf(lo, 1) {
		return barsPlot(title, "count", nil, nil)
	}
	n := int(hi-lo) + 1
	labels := make([]string, n)
	counts := make([]float64, n)
	for i := range labels {
		labels[i] = strconv.FormatFloat(lo+float64(i), 'f', -1, 64)
	}
	for _, v := range values {
		if finiteAll(v) {
			counts[int(math.Round(v)-lo)]++
		}
	}
	return barsPlot(title, "count", labels, []Series{{Name: xlabel, Values: counts}})
}

// whiskers is the error-bar data of IntervalBars: whisker i at x[i] from lo[i] to hi[i].
type whiskers struct{ x, y, lo, hi []float64 }

func (w whiskers) Len() int                        { return len(w.x) }
func (w whiskers) XY(i int) (float64, float64)     { return w.x[i], w.y[i] }
func (w whiskers) YError(i int) (float64, float64) { return w.y[i] - w.lo[i], w.hi[i] - w.y[i] }

// IntervalBars draws one bar per label with a whisker from lo[i] to hi[i] (a confidence
// interval, for example). A label whose value or bounds are missing or NaN gets no whisker.
func IntervalBars(title, ylabel string, labels []string, values, lo, hi []float64) string {
	return render(intervalPlot(title, ylabel, labels, values, lo, hi))
}

func intervalPlot(title, ylabel string, labels []string, values, lo, hi []float64) (*gplot.Plot, vg.Length) {
	p, extra := barsPlot(title, ylabel, labels, []Series{{Name: ylabel, Values: values}})
	var w whiskers
	for i := range labels {
		if i < len(values) && i < len(lo) && i < len(hi) && finiteAll(values[i], lo[i], hi[i]) {
			w.x = append(w.x, float64(i))
			w.y = append(w.y, values[i])
			w.lo = append(w.lo, lo[i])
			w.hi = append(w.hi, hi[i])
		}
	}
	if w.Len() > 0 {
		e := must(plotter.NewYErrorBars(w))
		e.LineStyle.Width = vg.Points(1.5)
		p.Add(e)
	}
	return p, extra
}

func finiteAll(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
