// Package analysis holds the computations behind the project's notebooks, so that the
// notebooks stay short and the numbers they show are tested: self-play dataset summaries
// (game lengths, bids, prices, action kinds by phase) and training-run metrics files.
package analysis

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/container-rl/container/datasets"
)

// ErrInput is wrapped by every error about a file this package cannot use.
var ErrInput = errors.New("analysis: unusable input")

// OpenDataset opens a dataset directory whatever observation encoding it was written with:
// the analyses here read game records and action names, never observations.
func OpenDataset(dir string) (*datasets.Dataset, error) {
	m, err := datasets.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	d, err := datasets.Open(dir, datasets.AcceptEncodings(m.Meta.EncodingVersion))
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	return d, nil
}

// Games is what the notebooks plot per game.
type Games struct {
	Length []float64 // decisions per game
	Turns  []float64 // turns per game
	// Score is every seat's final score, game after game (Seats values per game).
	Score []float64
	// EndReasons counts games by why they ended.
	EndReasons map[string]int
}

// ReadGames collects the per-game columns of d.
func ReadGames(d *datasets.Dataset) (*Games, error) {
	g := &Games{EndReasons: map[string]int{}}
	for game, err := range d.Games() {
		if err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
		g.Length = append(g.Length, float64(game.Length))
		g.Turns = append(g.Turns, float64(game.Turns))
		for _, s := range game.Scores {
			g.Score = append(g.Score, float64(s.Total))
		}
		g.EndReasons[game.EndReason]++
	}
	return g, nil
}

// Steps is what the notebooks plot from the steps table.
type Steps struct {
	// Bids holds the amounts chosen in each phase that takes an amount ("$N" actions; "amount:N" in earlier datasets),
	// keyed by phase name: delivery bids, runoff additions, Bank cash bids, loan incentives.
	Bids map[string][]float64
	// Prices counts the prices of containers placed ("place:$N" actions), keyed by dollars.
	Prices map[int]int
	// KindsByPhase counts actions by phase name, then by action kind (the action name up to
	// its first colon: "place", "pick-factory", "amount", ...).
	KindsByPhase map[string]map[string]int
	Total        int
}

// ReadSteps walks the steps table of d once.
func ReadSteps(d *datasets.Dataset) (*Steps, error) {
	st := &Steps{Bids: map[string][]float64{}, Prices: map[int]int{}, KindsByPhase: map[string]map[string]int{}}
	m := d.Meta
	for c, err := range d.StepBatches() {
		if err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
		for i := 0; i < c.Len(); i++ {
			st.Total++
			phase := name(m.PhaseNames, int(c.Phase.Value(i)), "phase")
			action := name(m.ActionNames, int(c.Action.Value(i)), "action")
			kind, arg := actionKind(action)
			if st.KindsByPhase[phase] == nil {
				st.KindsByPhase[phase] = map[string]int{}
			}
			st.KindsByPhase[phase][kind]++
			switch kind {
			case "amount":
				if v, err := strconv.Atoi(arg); err == nil {
					st.Bids[phase] = append(st.Bids[phase], float64(v))
				}
			case "place":
				if v, err := strconv.Atoi(strings.TrimPrefix(arg, "$")); err == nil {
					st.Prices[v]++
				}
			}
		}
	}
	return st, nil
}

// actionKind splits a generic action name into its kind (the name up to its first colon) and
// the rest. Amounts are "$N" and "+$100" (earlier datasets: "amount:N", "amount:+100").
func actionKind(action string) (kind, arg string) {
	switch {
	case action == "+$100" || action == "amount:+100":
		return "amount-hundred", ""
	case strings.HasPrefix(action, "$"):
		return "amount", action[1:]
	}
	kind, arg, _ = strings.Cut(action, ":")
	return kind, arg
}

func name(names []string, i int, what string) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return what + ":" + strconv.Itoa(i)
}

// Keys returns a map's keys, sorted.
func Keys[K int | string, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Metrics is a numeric CSV file with a header row, such as a training run's metrics.csv.
type Metrics struct {
	Names []string
	Rows  [][]float64
}

// ReadMetrics reads a numeric CSV file with a header row.
func ReadMetrics(path string) (*Metrics, error) {
	header, rows, err := ReadTable(path)
	if err != nil {
		return nil, err
	}
	m := &Metrics{Names: header, Rows: make([][]float64, len(rows))}
	for r, row := range rows {
		m.Rows[r] = make([]float64, len(row))
		for i, s := range row {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: %s row %d column %q: %q is not a number", ErrInput, path, r+2, header[i], s)
			}
			m.Rows[r][i] = v
		}
	}
	return m, nil
}

// Column returns the values of the named column, or an error naming the columns there are.
func (m *Metrics) Column(name string) ([]float64, error) {
	for i, n := range m.Names {
		if n == name {
			out := make([]float64, len(m.Rows))
			for r, row := range m.Rows {
				out[r] = row[i]
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("%w: no column %q (have %s)", ErrInput, name, strings.Join(m.Names, ", "))
}

// ReadTable reads a CSV file with a header row; every row must have the header's width.
func ReadTable(path string) (header []string, rows [][]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis: %w", err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %v", ErrInput, path, err)
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("%w: %s is empty", ErrInput, path)
	}
	return all[0], all[1:], nil
}

// HTMLTable renders a header and rows as a plain HTML table (cells escaped) for
// gonbui.DisplayHTML.
func HTMLTable(header []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString(`<table style="border-collapse:collapse">`)
	cell := func(tag, s string) {
		fmt.Fprintf(&b, `<%s style="border:1px solid #ccc;padding:2px 6px">%s</%s>`, tag, htmlEscape(s), tag)
	}
	b.WriteString("<tr>")
	for _, h := range header {
		cell("th", h)
	}
	b.WriteString("</tr>")
	for _, r := range rows {
		b.WriteString("<tr>")
		for _, c := range r {
			cell("td", c)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

func htmlEscape(s string) string { return htmlEscaper.Replace(s) }
