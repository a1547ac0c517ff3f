package plot

import (
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wellFormed parses svg as XML and counts its elements by name.
func wellFormed(t *testing.T, svg string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, svg)
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
		}
	}
	require.Equal(t, 1, counts["svg"])
	return counts
}

func TestBarsDrawsOneRectPerValueAndEscapesText(t *testing.T) {
	svg := Bars("wins <by> seat", "rate", []string{"0", "1", "2"},
		Series{Name: "a&b", Values: []float64{0.5, 0.25, 0.25}},
		Series{Name: "c", Values: []float64{0.1, math.NaN(), 0.3}})
	n := wellFormed(t, svg)
	// background + 5 bars (the NaN is left out) + 2 legend swatches
	assert.Equal(t, 1+5+2, n["rect"])
	assert.Contains(t, svg, "wins &lt;by&gt; seat")
	assert.Contains(t, svg, "a&amp;b")
}

func TestHistogramCountsEveryValueOnce(t *testing.T) {
	counts, edges := Bin([]float64{1, 2, 2, 3, 4, 10, math.NaN()}, 3)
	assert.Equal(t, []int{4, 1, 1}, counts)
	assert.Equal(t, []float64{1, 4, 7, 10}, edges)
	n := wellFormed(t, Histogram("lengths", "decisions", []float64{1, 2, 3}, 4))
	assert.Equal(t, 1+4, n["rect"])
}

func TestBinHandlesDegenerateInput(t *testing.T) {
	c, e := Bin(nil, 5)
	assert.Nil(t, c)
	assert.Nil(t, e)
	c, _ = Bin([]float64{7, 7, 7}, 2)
	assert.Equal(t, []int{3, 0}, c, "equal values fall in the first bin")
	wellFormed(t, Histogram("empty", "x", nil, 5))
}

func TestLinesDrawsOnePolylinePerSeries(t *testing.T) {
	n := wellFormed(t, Lines("loss", "step", "loss", []float64{0, 10, 20},
		Series{Name: "train", Values: []float64{2, 1, 0.5}},
		Series{Name: "valid", Values: []float64{2.1, math.NaN(), 0.7}}))
	assert.Equal(t, 2, n["polyline"])
	wellFormed(t, Lines("empty", "x", "y", nil))
}

func TestTicksAreRoundAndInsideTheRange(t *testing.T) {
	assert.Equal(t, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}, Ticks(0, 1, 5))
	assert.Equal(t, []float64{20, 40, 60, 80}, Ticks(13, 87, 4))
	assert.Equal(t, []float64{3}, Ticks(3, 3, 4))
	assert.Equal(t, 50.0, niceCeil(41))
	assert.Equal(t, 1.0, niceCeil(0))
}

func TestCountsHasOneBarPerWholeNumberInTheRange(t *testing.T) {
	n := wellFormed(t, Counts("bids", "dollars", []float64{0, 2, 2, 3}))
	// background + bars for 0, 2, 2's count, 3 (1 is an empty slot drawn with zero height)
	assert.Equal(t, 1+4, n["rect"])
	wellFormed(t, Counts("none", "dollars", nil))
}

func TestBarsWithManyLabelsGrowsToFitThem(t *testing.T) {
	labels := make([]string, 14)
	for i := range labels {
		labels[i] = "bank-container-bid"
	}
	svg := Bars("phases", "n", labels, Series{Values: make([]float64, 14)})
	wellFormed(t, svg)
	assert.NotContains(t, svg, `height="320"`, "the chart is taller than the default")
}

func TestIntervalBarsDrawsAWhiskerPerInterval(t *testing.T) {
	n := wellFormed(t, IntervalBars("win rate", "rate", []string{"a", "b", "c"},
		[]float64{0.5, 0.2, 0.1}, []float64{0.4, 0.1, math.NaN()}, []float64{0.6, 0.3, math.NaN()}))
	assert.Equal(t, 2, n["g"], "no whisker for the NaN interval")
	assert.Equal(t, 1+3, n["rect"])
}

func TestIntervalBarsAxisCoversTheWhiskers(t *testing.T) {
	svg := IntervalBars("r", "rate", []string{"a"}, []float64{0.1}, []float64{0.05}, []float64{0.9})
	assert.Contains(t, svg, ">1</text>", "the axis reaches 1 so the whisker to 0.9 fits")
}
