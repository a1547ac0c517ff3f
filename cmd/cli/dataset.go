package cli

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/container-rl/container/datasets"
	_ "github.com/container-rl/container/datasets/selfplay" // registers the current encoding version with the readers
	"github.com/spf13/cobra"
)

// ErrDatasetOptions is wrapped by every dataset option error.
var ErrDatasetOptions = errors.New("dataset: invalid options")

type datasetOptions struct {
	json  bool
	rows  int
	games bool
	top   int
}

func newDatasetCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dataset",
		Short: "Inspect a self-play dataset: statistics and first rows",
		Long: `Inspect a dataset written by container selfplay. Only the shards its manifest lists are read,
so a dataset still being written (or interrupted) can be inspected as it stands. A dataset
recorded with an observation encoding this build does not know is refused.`,
		Example: `  container dataset stats runs/random
  container dataset stats runs/random --json
  container dataset head runs/random -n 5
  container dataset calibrate runs/heldout --agent default`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return fmt.Errorf("%w: name a subcommand: stats, head, merge or calibrate", ErrDatasetOptions)
		},
	}
	o := datasetOptions{}
	stats := &cobra.Command{
		Use:   "stats DIR",
		Short: "Games, steps, win rates by seat and agent, action frequencies by phase, produced-container prices",
		Example: `  container dataset stats runs/random
  container dataset stats runs/random --json | jq .wins_by_seat`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runDatasetStats(args[0], o, cmd.OutOrStdout()) },
	}
	stats.Flags().BoolVar(&o.json, "json", false, "print JSON (every counter) instead of a summary")
	stats.Flags().IntVar(&o.top, "top", 5, "actions listed per phase in the summary (and phases in the policy column's summary)")
	head := &cobra.Command{
		Use:   "head DIR",
		Short: "Print the manifest summary and the first rows of the games and steps tables",
		Example: `  container dataset head runs/random
  container dataset head runs/random -n 20`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runDatasetHead(args[0], o, cmd.OutOrStdout()) },
	}
	head.Flags().IntVarP(&o.rows, "rows", "n", 10, "rows to print from each table")
	cmd.AddCommand(stats, head, newDatasetMergeCmd(), newDatasetCalibrateCmd())
	return cmd
}

func init() { register(newDatasetCmd) }

func runDatasetStats(dir string, o datasetOptions, out io.Writer) error {
	if err := checkIntFlags(intIn("dataset stats", "top", o.top)); err != nil {
		return fmt.Errorf("%w: %w", ErrDatasetOptions, err)
	}
	if o.top < 0 {
		return fmt.Errorf("%w: --top %d is negative", ErrDatasetOptions, o.top)
	}
	ds, err := datasets.Open(dir)
	if err != nil {
		return err
	}
	st, err := ds.ComputeStats()
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(out, st)
	}
	fmt.Fprintf(out, "%s: %d games (of %d planned) in %d shards, %s/%s, encoding %s (%d floats), %d seats\n",
		dir, st.Games, st.PlannedGames, st.Shards, st.Format, ds.Manifest.Compression, st.EncodingVersion, ds.Meta.ObsDim, st.Seats)
	fmt.Fprintf(out, "steps: %d; mean game length %.1f decisions, %.1f turns\n", st.Steps, st.MeanLength, st.MeanTurns)
	fmt.Fprint(out, "game end:")
	for _, k := range sortedKeys(st.EndReasons) {
		fmt.Fprintf(out, " %s %d", k, st.EndReasons[k])
	}
	fmt.Fprintln(out)
	fmt.Fprint(out, "wins by seat (shared wins count for each winner):")
	for s, w := range st.WinsBySeat {
		fmt.Fprintf(out, "  %d: %d (%s)", s, w, pct(st.WinRateBySeat[s]))
	}
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "agent\tseat-games\twins\twin rate\tmean score\t")
	for _, n := range st.AgentNames() {
		a := st.ByAgent[n]
		fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%.1f\t\n", n, a.Seats, a.Wins, pct(a.WinRate), a.MeanScore)
	}
	_ = w.Flush()
	var total int64
	for _, p := range st.ProducedPrices {
		total += p
	}
	fmt.Fprint(out, "produced containers by first price:")
	if total == 0 {
		fmt.Fprint(out, " none")
	}
	prices := make([]int, 0, len(st.ProducedPrices))
	for p := range st.ProducedPrices {
		prices = append(prices, p)
	}
	sort.Ints(prices)
	for _, p := range prices {
		fmt.Fprintf(out, "  $%d: %d (%s)", p, st.ProducedPrices[p], pct(float64(st.ProducedPrices[p])/float64(total)))
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "actions by phase (most frequent first):")
	type phase struct {
		name  string
		total int64
	}
	var phases []phase
	for name, acts := range st.ActionsByPhase {
		var n int64
		for _, c := range acts {
			n += c
		}
		phases = append(phases, phase{name, n})
	}
	sort.Slice(phases, func(i, j int) bool {
		if phases[i].total != phases[j].total {
			return phases[i].total > phases[j].total
		}
		return phases[i].name < phases[j].name
	})
	for _, ph := range phases {
		acts := st.ActionsByPhase[ph.name]
		names := sortedKeys(acts)
		sort.SliceStable(names, func(i, j int) bool { return acts[names[i]] > acts[names[j]] })
		var parts []string
		for i, n := range names {
			if i == o.top {
				parts = append(parts, fmt.Sprintf("... %d more", len(names)-o.top))
				break
			}
			parts = append(parts, fmt.Sprintf("%s %s", n, pct(float64(acts[n])/float64(ph.total))))
		}
		fmt.Fprintf(out, "  %-20s %9d (%s)  %s\n", ph.name, ph.total, pct(float64(ph.total)/float64(max(st.Steps, 1))), strings.Join(parts, ", "))
	}
	if p := st.Policy; p != nil {
		fmt.Fprintf(out, "policy column over %d decisions with a choice: the most likely action has %.3f on average, entropy %.2f nats, the action taken is the most likely in %s\n",
			p.Rows, p.MeanTop, p.MeanEntropy, pct(p.TakenTop))
		names := sortedKeys(p.ByPhase)
		sort.SliceStable(names, func(i, j int) bool { return p.ByPhase[names[i]].Rows > p.ByPhase[names[j]].Rows })
		for i, n := range names {
			if i == o.top {
				fmt.Fprintf(out, "  ... %d more phases\n", len(names)-o.top)
				break
			}
			q := p.ByPhase[n]
			fmt.Fprintf(out, "  %-20s %9d  top %.3f  entropy %.2f  taken = top %s\n", n, q.Rows, q.MeanTop, q.MeanEntropy, pct(q.TakenTop))
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func runDatasetHead(dir string, o datasetOptions, out io.Writer) error {
	if err := checkIntFlags(intIn("dataset head", "rows", o.rows)); err != nil {
		return fmt.Errorf("%w: %w", ErrDatasetOptions, err)
	}
	if o.rows < 0 {
		return fmt.Errorf("%w: --rows %d is negative", ErrDatasetOptions, o.rows)
	}
	ds, err := datasets.Open(dir)
	if err != nil {
		return err
	}
	m := ds.Manifest
	games, steps := m.GamesDone()
	fmt.Fprintf(out, "%s: %d of %d games, %d steps, %d of %d shards, %s/%s, seed %d, agents %s\n",
		dir, games, m.Games, steps, len(m.Shards), m.NumShards(), m.Format, m.Compression, m.Seed, strings.Join(m.Agents, ","))
	fmt.Fprintf(out, "encoding %s: %d floats in %d features; %d actions; tool %s; options %s\n",
		m.Meta.EncodingVersion, m.Meta.ObsDim, len(m.Meta.Features), m.Meta.NumActions, m.Meta.ToolVersion, m.Meta.RulesOptions)

	fmt.Fprintln(out, "\ngames:")
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "game_id\tseed\tagents\tfinal_score\tfinal_cash\twinners\tlength\tturns\tend_reason\t")
	n := 0
	// The agents of the games printed, by game id, so the steps table can name the decider.
	seats := map[uint64][]string{}
	for g, err := range ds.Games() {
		if err != nil {
			return err
		}
		if n == o.rows {
			break
		}
		n++
		seats[uint64(g.GameID)] = g.Agents
		var score, cash, winners []string
		for _, s := range g.Scores {
			score = append(score, fmt.Sprint(s.Total))
			cash = append(cash, fmt.Sprint(s.Cash))
		}
		for _, seat := range g.Winners {
			winners = append(winners, seatName(int(seat), g.Agents))
		}
		fmt.Fprintf(w, "%d\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t\n", g.GameID, g.Seed, strings.Join(g.Agents, ","),
			strings.Join(score, ","), strings.Join(cash, ","), strings.Join(winners, ","), g.Length, g.Turns, g.EndReason)
	}
	_ = w.Flush()

	fmt.Fprintln(out, "\nsteps:")
	w = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "game_id\tstep\tturn\tdecider\tphase\tlegal\taction\taction_text\treward\tdone\treturns\tobs[:8]\t")
	n = 0
	var s datasets.Step
	for c, err := range ds.StepBatches() {
		if err != nil {
			return err
		}
		for i := 0; i < c.Len() && n < o.rows; i++ {
			n++
			c.Row(i, &s)
			phase := fmt.Sprint(s.Phase)
			if int(s.Phase) < len(m.Meta.PhaseNames) {
				phase = m.Meta.PhaseNames[s.Phase]
			}
			action := fmt.Sprint(s.Action)
			if int(s.Action) < len(m.Meta.ActionNames) {
				action = fmt.Sprintf("%d %s", s.Action, m.Meta.ActionNames[s.Action])
			}
			fmt.Fprintf(w, "%d\t%d\t%d\t%s\t%s\t%d\t%s\t%s\t%g\t%v\t%v\t%v\t\n", s.GameID, s.Step, s.Turn, seatName(int(s.Decider), seats[uint64(s.GameID)]), phase,
				len(s.Legal), action, s.ActionText, s.Reward, s.Done, s.Returns, s.Obs[:min(8, len(s.Obs))])
		}
		if n == o.rows {
			break
		}
	}
	return w.Flush()
}

// seatName is a seat number with the name of the agent that played it ("2 valuer"), or the
// number alone where the agents are not known.
func seatName(seat int, agents []string) string {
	if seat >= 0 && seat < len(agents) && agents[seat] != "" {
		return fmt.Sprintf("%d %s", seat, agents[seat])
	}
	return fmt.Sprint(seat)
}
