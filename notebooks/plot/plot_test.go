package plot

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chart is what a test reads back from an SVG document: its height, its text elements and its
// paths' style attributes.
type chart struct {
	height float64
	texts  []string
	styles []string
}

// parse checks svg is a well-formed XML document with one <svg> element and reads it back.
func parse(t *testing.T, svg string) chart {
	t.Helper()
	var c chart
	svgs := 0
	d := xml.NewDecoder(strings.NewReader(svg))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, svg)
		switch tok := tok.(type) {
		case xml.StartElement:
			switch tok.Name.Local {
			case "svg":
				svgs++
				for _, a := range tok.Attr {
					if a.Name.Local == "height" {
						h, err := strconv.ParseFloat(strings.TrimSuffix(a.Value, "pt"), 64)
						require.NoError(t, err)
						c.height = h
					}
				}
			case "text":
				inText = true
			case "path":
				for _, a := range tok.Attr {
					if a.Name.Local == "style" {
						c.styles = append(c.styles, a.Value)
					}
				}
			}
		case xml.CharData:
			if inText {
				c.texts = append(c.texts, string(tok))
			}
		case xml.EndElement:
			inText = false
		}
	}
	require.Equal(t, 1, svgs, "one <svg> element")
	require.True(t, strings.HasPrefix(svg, "<svg"), "no XML prolog before the element")
	return c
}

// hex spells the i-th palette colour as the SVG writer does.
func hex(i int) string {
	r, g, b, _ := Colour(i).RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// fills counts the filled paths (bars, legend swatches) of the i-th palette colour.
func (c chart) fills(i int) int {
	n := 0
	for _, s := range c.styles {
		if strings.Contains(s, "fill:"+hex(i)) {
			n++
		}
	}
	return n
}

// strokes counts the paths drawn with the given stroke colour and width.
func (c chart) strokes(colour, width string) int {
	n := 0
	for _, s := range c.styles {
		if strings.Contains(s, "stroke:"+colour+";stroke-width:"+width) {
			n++
		}
	}
	return n
}

func TestBarsDrawsOneBarPerValueAndALegendForSeveralSeries(t *testing.T) {
	svg := Bars("wins <by> seat", "rate", []string{"seat 0", "seat 1", "seat 2"},
		Series{Name: "a&b", Values: []float64{0.5, 0.25, 0.25}},
		Series{Name: "c", Values: []float64{0.1, math.NaN(), 0.3}})
	c := parse(t, svg)
	assert.Equal(t, 3+1, c.fills(0), "3 bars and a legend swatch")
	assert.Equal(t, 3+1, c.fills(1), "3 bars (the NaN one of zero height) and a legend swatch")
	assert.Contains(t, c.texts, "wins <by> seat")
	assert.Contains(t, svg, "wins &lt;by&gt; seat", "text is escaped")
	assert.Contains(t, svg, "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
	assert.Subset(t, c.texts, []string{"a&b", "c", "seat 0", "seat 1", "seat 2", "rate"})

	one := parse(t, Bars("one", "n", []string{"x", "y"}, Series{Name: "only", Values: []float64{1, 2}}))
	assert.Equal(t, 2, one.fills(0), "a single series has no legend")
	assert.NotContains(t, one.texts, "only")
}

func TestBarsWithManyLabelsWritesThemVerticallyOnATallerChart(t *testing.T) {
	short := parse(t, Bars("phases", "n", []string{"a", "b"}, Series{Values: []float64{1, 2}}))
	labels := make([]string, verticalLabels)
	for i := range labels {
		labels[i] = "bank-container-bid"
	}
	svg := Bars("phases", "n", labels, Series{Values: make([]float64, len(labels))})
	assert.Greater(t, parse(t, svg).height, short.height)
	assert.Contains(t, svg, `rotate(90)`)
}

func TestHistogramDrawsOneBarPerBinAndSkipsNaN(t *testing.T) {
	c := parse(t, Histogram("lengths", "decisions", []float64{1, 2, 2, 3, 4, 10, math.NaN(), math.Inf(1)}, 3))
	assert.Equal(t, 3, c.fills(0))
	assert.Contains(t, c.texts, "decisions")
	assert.Equal(t, 4.0, histogramPlot("lengths", "decisions", []float64{1, 2, 2, 3, 10}, 3).Y.Max,
		"1, 2, 2 and 3 fall in the first of the bins [1,4) [4,7) [7,10]")
}

func TestLinesDrawsOneLinePerSeriesLeavingOutNaN(t *testing.T) {
	svg := Lines("loss", "step", "loss", []float64{0, 10, 20},
		Series{Name: "train", Values: []float64{2, 1, 0.5}},
		Series{Name: "valid", Values: []float64{2.1, math.NaN(), 0.7}})
	c := parse(t, svg)
	// One line per series plus its legend thumbnail.
	assert.Equal(t, 2, c.strokes(hex(0), "1.5"))
	assert.Equal(t, 2, c.strokes(hex(1), "1.5"))
	assert.Regexp(t, regexp.MustCompile(`d="M[0-9.]+,[0-9.]+L[0-9.]+,[0-9.]+" style="fill:none;stroke:`+hex(1)), svg,
		"the valid line has 2 points: its NaN is left out")
	assert.Subset(t, c.texts, []string{"train", "valid", "step", "loss"})
}

func TestCountsHasOneBarPerWholeNumberInTheRange(t *testing.T) {
	c := parse(t, Counts("bids", "dollars", []float64{0, 2, 2, 3.2}))
	assert.Equal(t, 4, c.fills(0), "bars for 0, 1 (an empty slot), 2 and 3")
	assert.Subset(t, c.texts, []string{"0", "1", "2", "3"})
	p, _ := countsPlot("bids", "dollars", []float64{0, 2, 2, 3.2})
	assert.Equal(t, 2.0, p.Y.Max, "2 occurs twice")
}

func TestIntervalBarsDrawsAWhiskerPerIntervalAndItsAxisCoversThem(t *testing.T) {
	c := parse(t, IntervalBars("win rate", "rate", []string{"a", "b", "c"},
		[]float64{0.5, 0.2, 0.1}, []float64{0.4, 0.1, math.NaN()}, []float64{0.6, 0.95, math.NaN()}))
	assert.Equal(t, 3, c.fills(0))
	// Each whisker is a vertical line and two caps; the NaN interval has none.
	assert.Equal(t, 2*3, c.strokes("#000000", "1.5"))
	p, _ := intervalPlot("win rate", "rate", []string{"a"}, []float64{0.1}, []float64{0.05}, []float64{0.95})
	assert.Equal(t, 0.95, p.Y.Max, "the axis reaches the whisker's top, above the bar")
}

func TestEmptyAndDegenerateInputsGiveAChart(t *testing.T) {
	for name, svg := range map[string]func() string{
		"no bars":            func() string { return Bars("e", "n", nil) },
		"series longer":      func() string { return Bars("e", "n", []string{"a"}, Series{Values: []float64{1, 2, 3}}) },
		"no histogram":       func() string { return Histogram("e", "x", nil, 5) },
		"one value":          func() string { return Histogram("e", "x", []float64{7, 7, 7}, 2) },
		"no bins":            func() string { return Histogram("e", "x", []float64{1}, 0) },
		"no lines":           func() string { return Lines("e", "x", "y", nil) },
		"x shorter":          func() string { return Lines("e", "x", "y", []float64{1}, Series{Values: []float64{1, 2}}) },
		"no counts":          func() string { return Counts("e", "x", []float64{math.NaN()}) },
		"no intervals":       func() string { return IntervalBars("e", "y", []string{"a"}, nil, nil, nil) },
		"all NaN":            func() string { return Bars("e", "n", []string{"a"}, Series{Values: []float64{math.NaN()}}) },
		"negative and large": func() string { return Bars("e", "n", []string{"a", "b"}, Series{Values: []float64{-3, 1e12}}) },
	} {
		t.Run(name, func(t *testing.T) { parse(t, svg()) })
	}
}
