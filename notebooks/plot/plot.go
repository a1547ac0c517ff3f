// Package plot draws small SVG charts (grouped bars, histograms, line charts) for the project's
// notebooks, with the standard library only. Every function returns a complete <svg> element
// that GoNB shows with gonbui.DisplaySVG and that any browser opens as a file.
package plot

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Series is a named list of values: one bar per label, or one y value per x.
type Series struct {
	Name   string
	Values []float64
}

// Chart size and margins, in SVG user units (pixels).
const (
	width   = 640
	height  = 320
	left    = 60
	right   = 20
	top     = 34
	bottom  = 64
	plotW   = width - left - right
	plotH   = height - top - bottom
	fontCSS = `font-family="sans-serif" font-size="11"`
)

// palette is a colour-blind-safe qualitative palette (Okabe-Ito).
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"}

// Colour returns the i-th palette colour.
func Colour(i int) string { return palette[i%len(palette)] }

type canvas struct {
	b          strings.Builder
	ymin, ymax float64
}

// newCanvas starts a chart; extra is added below the plot for long (vertical) x labels.
func newCanvas(title string, ymin, ymax float64, extra int) *canvas {
	c := &canvas{ymin: ymin, ymax: ymax}
	if c.ymax <= c.ymin {
		c.ymax = c.ymin + 1
	}
	h := height + extra
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" %s>`, width, h, width, h, fontCSS)
	fmt.Fprintf(&c.b, `<rect width="%d" height="%d" fill="white"/>`, width, h)
	fmt.Fprintf(&c.b, `<text x="%d" y="20" font-size="14" font-weight="bold">%s</text>`, left, esc(title))
	return c
}

func esc(s string) string { return html.EscapeString(s) }

// y maps a value to its vertical pixel position.
func (c *canvas) y(v float64) float64 {
	return top + plotH - (v-c.ymin)/(c.ymax-c.ymin)*plotH
}

// yAxis draws horizontal grid lines with tick labels.
func (c *canvas) yAxis(label string) {
	for _, t := range Ticks(c.ymin, c.ymax, 5) {
		y := c.y(t)
		fmt.Fprintf(&c.b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`, left, left+plotW, y, y)
		fmt.Fprintf(&c.b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, left-4, y, esc(formatTick(t)))
	}
	fmt.Fprintf(&c.b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#333"/>`, left, left, top, top+plotH)
	fmt.Fprintf(&c.b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#333"/>`, left, left+plotW, top+plotH, top+plotH)
	if label != "" {
		fmt.Fprintf(&c.b, `<text transform="translate(14,%d) rotate(-90)" text-anchor="middle">%s</text>`, top+plotH/2, esc(label))
	}
}

// legend draws one swatch per series name, top right, when there is more than one series.
func (c *canvas) legend(names []string) {
	if len(names) < 2 {
		return
	}
	x := float64(width - right)
	for i := len(names) - 1; i >= 0; i-- {
		x -= 14 + 7*float64(len(names[i])) + 10
		fmt.Fprintf(&c.b, `<rect x="%.1f" y="10" width="10" height="10" fill="%s"/>`, x, Colour(i))
		fmt.Fprintf(&c.b, `<text x="%.1f" y="19">%s</text>`, x+14, esc(names[i]))
	}
}

func (c *canvas) String() string { return c.b.String() + "</svg>" }

// Bars draws a grouped bar chart: one group per label, one bar per series in each group.
func Bars(title, ylabel string, labels []string, series ...Series) string {
	return bars(title, ylabel, labels, 0, series)
}

// bars is Bars with the axis reaching at least up to atLeast.
func bars(title, ylabel string, labels []string, atLeast float64, series []Series) string {
	lo, hi := 0.0, atLeast
	for _, s := range series {
		for _, v := range s.Values {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	n := max(len(labels), 1)
	vertical, extra := n > 12, 0
	for _, l := range labels {
		if w := 7*len(l) + 10 - (bottom - 14); len(l) > 0 && w > extra {
			extra = w
		}
	}
	if !vertical {
		extra = 0
	}
	c := newCanvas(title, lo, niceCeil(hi), extra)
	c.yAxis(ylabel)
	group := float64(plotW) / float64(n)
	bar := group * 0.8 / float64(max(len(series), 1))
	for g, l := range labels {
		x0 := left + float64(g)*group + group*0.1
		for si, s := range series {
			if g >= len(s.Values) || isNaN(s.Values[g]) {
				continue
			}
			v := s.Values[g]
			y0, y1 := c.y(math.Max(v, 0)), c.y(math.Min(v, 0))
			fmt.Fprintf(&c.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`,
				x0+float64(si)*bar, y0, math.Max(bar-1, 1), y1-y0, Colour(si), esc(s.Name), esc(l), formatTick(v))
		}
		cx := left + float64(g)*group + group/2
		if vertical {
			fmt.Fprintf(&c.b, `<text transform="translate(%.1f,%d) rotate(-90)" text-anchor="end" dominant-baseline="middle">%s</text>`, cx, top+plotH+6, esc(l))
		} else {
			fmt.Fprintf(&c.b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, cx, top+plotH+14, esc(l))
		}
	}
	c.legend(names(series))
	return c.String()
}

// Histogram counts values into bins equal-width bins between their minimum and maximum and
// draws the counts.
func Histogram(title, xlabel string, values []float64, bins int) string {
	counts, edges := Bin(values, bins)
	hi := 0.0
	for _, k := range counts {
		hi = math.Max(hi, float64(k))
	}
	c := newCanvas(title, 0, niceCeil(hi), 0)
	c.yAxis("count")
	if len(counts) > 0 {
		w := float64(plotW) / float64(len(counts))
		for i, k := range counts {
			y := c.y(float64(k))
			fmt.Fprintf(&c.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>[%s, %s): %d</title></rect>`,
				left+float64(i)*w, y, math.Max(w-1, 1), top+plotH-y, Colour(0), formatTick(edges[i]), formatTick(edges[i+1]), k)
		}
		for _, i := range []int{0, len(counts) / 2, len(counts)} {
			fmt.Fprintf(&c.b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, left+float64(i)*w, top+plotH+14, formatTick(edges[i]))
		}
	}
	fmt.Fprintf(&c.b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, left+plotW/2, height-16, esc(xlabel))
	return c.String()
}

// Bin counts values into bins equal-width bins spanning [min, max]; edges has bins+1 entries.
// NaNs are ignored; no values give no bins.
func Bin(values []float64, bins int) (counts []int, edges []float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !isNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if bins < 1 || math.IsInf(lo, 1) {
		return nil, nil
	}
	if hi == lo {
		hi = lo + 1
	}
	counts = make([]int, bins)
	edges = make([]float64, bins+1)
	for i := range edges {
		edges[i] = lo + (hi-lo)*float64(i)/float64(bins)
	}
	for _, v := range values {
		if isNaN(v) {
			continue
		}
		i := int((v - lo) / (hi - lo) * float64(bins))
		counts[min(i, bins-1)]++
	}
	return counts, edges
}

// Lines draws one polyline per series over the shared x values.
func Lines(title, xlabel, ylabel string, x []float64, series ...Series) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, v := range s.Values {
			if !isNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	pad := (hi - lo) * 0.05
	c := newCanvas(title, lo-pad, hi+pad, 0)
	c.yAxis(ylabel)
	xlo, xhi := 0.0, 1.0
	if len(x) > 0 {
		xlo, xhi = x[0], x[len(x)-1]
	}
	if xhi <= xlo {
		xhi = xlo + 1
	}
	xp := func(v float64) float64 { return left + (v-xlo)/(xhi-xlo)*plotW }
	for si, s := range series {
		var pts []string
		for i, v := range s.Values {
			if i < len(x) && !isNaN(v) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", xp(x[i]), c.y(v)))
			}
		}
		fmt.Fprintf(&c.b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"><title>%s</title></polyline>`, Colour(si), strings.Join(pts, " "), esc(s.Name))
	}
	for _, t := range Ticks(xlo, xhi, 6) {
		fmt.Fprintf(&c.b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, xp(t), top+plotH+14, formatTick(t))
	}
	fmt.Fprintf(&c.b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, left+plotW/2, height-16, esc(xlabel))
	c.legend(names(series))
	return c.String()
}

func names(series []Series) []string {
	out := make([]string, len(series))
	for i, s := range series {
		out[i] = s.Name
	}
	return out
}

func isNaN(v float64) bool { return v != v }

// Ticks returns round tick values within [lo, hi], about n of them.
func Ticks(lo, hi float64, n int) []float64 {
	if !(hi > lo) || n < 1 || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return []float64{lo}
	}
	step := niceStep((hi - lo) / float64(n))
	// Multiples of the step, computed as k/10^d for steps below 1 so 0.6 prints as 0.6.
	at := func(k float64) float64 { return k * step }
	if step < 1 {
		inv := math.Round(1 / step)
		at = func(k float64) float64 { return k / inv }
	}
	var out []float64
	for k := math.Ceil(lo/step - 1e-9); at(k) <= hi+step*1e-9; k++ {
		out = append(out, at(k)+0) // +0 turns -0 into 0
	}
	return out
}

// niceStep rounds a raw step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// niceCeil rounds v up to a round number for an axis maximum.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	s := niceStep(v / 5)
	return math.Ceil(v/s) * s
}

func formatTick(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e9 {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.3g", v)
}

// Counts draws how often each whole number occurs in values (bids, prices): one bar per
// number from the smallest to the largest, so gaps show as empty slots.
func Counts(title, xlabel string, values []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !isNaN(v) {
			lo, hi = math.Min(lo, math.Round(v)), math.Max(hi, math.Round(v))
		}
	}
	if math.IsInf(lo, 1) {
		return Bars(title, "count", nil)
	}
	n := int(hi-lo) + 1
	labels := make([]string, n)
	counts := make([]float64, n)
	for i := range labels {
		labels[i] = formatTick(lo + float64(i))
	}
	for _, v := range values {
		if !isNaN(v) {
			counts[int(math.Round(v)-lo)]++
		}
	}
	return Bars(title, "count", labels, Series{Name: xlabel, Values: counts})
}

// IntervalBars draws one bar per label with a whisker from lo[i] to hi[i] (a confidence
// interval, for example).
func IntervalBars(title, ylabel string, labels []string, values, lo, hi []float64) string {
	top := 0.0
	for i := range values {
		top = math.Max(top, values[i])
		if i < len(hi) && !isNaN(hi[i]) {
			top = math.Max(top, hi[i])
		}
	}
	svg := bars(title, ylabel, labels, top, []Series{{Name: ylabel, Values: values}})
	// The scale bars used (values are rates or counts, so it starts at 0).
	c := &canvas{ymin: 0, ymax: niceCeil(top)}
	var b strings.Builder
	group := float64(plotW) / float64(max(len(labels), 1))
	for i := range labels {
		if i >= len(lo) || i >= len(hi) || isNaN(lo[i]) || isNaN(hi[i]) {
			continue
		}
		cx := left + float64(i)*group + group/2
		y0, y1 := c.y(lo[i]), c.y(hi[i])
		fmt.Fprintf(&b, `<g stroke="#333" stroke-width="1.5"><line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, cx, cx, y0, y1)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/><line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/></g>`,
			cx-6, cx+6, y0, y0, cx-6, cx+6, y1, y1)
	}
	return strings.TrimSuffix(svg, "</svg>") + b.String() + "</svg>"
}
