package eval

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// ErrMerge is wrapped by every refusal to merge tournament shards or to read a results file.
var ErrMerge = errors.New("eval: cannot merge results")

// Shard is part Index of Count of a tournament's games (Config.Shard).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// MaxShards bounds Shard.Count.
const MaxShards = 1 << 20

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Validate checks 0 <= Index < Count <= MaxShards.
func (s Shard) Validate() error {
	switch {
	case s.Count < 1:
		return fmt.Errorf("%w: shard %s: the shard count must be at least 1", ErrConfig, s)
	case s.Count > MaxShards:
		return fmt.Errorf("%w: shard %s: at most %d shards", ErrConfig, s, MaxShards)
	case s.Index < 0 || s.Index >= s.Count:
		return fmt.Errorf("%w: shard %s: the index must be 0 to %d", ErrConfig, s, s.Count-1)
	}
	return nil
}

// Range returns the games [first, end) of the shard in a tournament of games games played in
// blocks of batch (0 or 1: single games): contiguous ranges of whole blocks, so a shard plays
// every game exactly as one run would (same seeds, same seats, same batch bots).
func (s Shard) Range(games, batch int) (first, end int) {
	b := max(batch, 1)
	units := (games + b - 1) / b
	lo, hi := mulDiv(s.Index, units, s.Count), mulDiv(s.Index+1, units, s.Count)
	return min(lo*b, games), min(hi*b, games)
}

// mulDiv is a*b/c for 0 <= a <= c, b >= 0 and c > 0, without overflow.
func mulDiv(a, b, c int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c)) // a <= c, so the quotient fits
	return int(q)
}

// ResultsFormat names the results file layout (ResultsFile.Format): /2 carries a checksum;
// /1 (written before there was one) is read only by UpgradeResultsFile.
const (
	ResultsFormat   = "container-eval-results/2"
	ResultsFormatV1 = "container-eval-results/1"
)

// ResultsFile is what a tournament shard writes (container eval/rate --shard): the
// tournament's settings, the shard's game range and every finished game's result. Merge joins
// the files of all shards into the Result one run would have produced.
type ResultsFile struct {
	Format      string        `json:"format"`
	ToolVersion string        `json:"tool_version"`
	Agents      []string      `json:"agents"`
	Options     rules.Options `json:"options"`
	Seed        uint64        `json:"seed"`
	// Games is the whole tournament's game count; the shard played [FirstGame, EndGame).
	Games       int   `json:"games"`
	Batch       int   `json:"batch"`
	Shard       Shard `json:"shard"`
	FirstGame   int   `json:"first_game"`
	EndGame     int   `json:"end_game"`
	Interrupted bool  `json:"interrupted"`
	// Schedule is the tournament's seating schedule ("": ScheduleWindow, as in every file
	// written before there was a choice).
	Schedule Schedule     `json:"schedule,omitempty"`
	Results  []GameResult `json:"results"`
	// Checksum is the SHA-256 of the file's canonical JSON without this member (see
	// resultsSum); ReadResultsFile refuses a file that does not match it.
	Checksum string `json:"checksum,omitempty"`
}

// NewResultsFile records res, the result of running cfg (whose Shard may be nil: the whole
// tournament as shard 0/1).
func NewResultsFile(cfg Config, res *Result, toolVersion string) *ResultsFile {
	sh := Shard{0, 1}
	if cfg.Shard != nil {
		sh = *cfg.Shard
	}
	first, end := sh.Range(cfg.Games, cfg.Batch)
	return &ResultsFile{
		Format: ResultsFormat, ToolVersion: toolVersion, Agents: slices.Clone(res.Agents), Options: res.Options,
		Seed: res.Seed, Games: cfg.Games, Batch: max(cfg.Batch, 0), Shard: sh, FirstGame: first, EndGame: end,
		Interrupted: res.Interrupted, Schedule: cfg.Schedule, Results: res.Games,
	}
}

// Validate checks the file is self-consistent: its range is its shard's, and every game lies
// in the range once, in order, with the seed and seats the tournament gives it.
func (f *ResultsFile) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrMerge, fmt.Sprintf(format, args...))
	}
	if f.Format != ResultsFormat && f.Format != ResultsFormatV1 {
		return bad("format %q, this build reads %q", f.Format, ResultsFormat)
	}
	if len(f.Agents) == 0 || f.Games < 1 || f.Batch < 0 {
		return bad("%d agents, %d games, batch %d", len(f.Agents), f.Games, f.Batch)
	}
	if err := f.Options.Validate(); err != nil {
		return bad("%v", err)
	}
	if err := f.Shard.Validate(); err != nil {
		return bad("%v", err)
	}
	if err := f.Schedule.check(len(f.Agents)); err != nil {
		return bad("%v", err)
	}
	if first, end := f.Shard.Range(f.Games, f.Batch); f.FirstGame != first || f.EndGame != end {
		return bad("shard %s of %d games is [%d,%d), the file says [%d,%d)", f.Shard, f.Games, first, end, f.FirstGame, f.EndGame)
	}
	var seats []int
	for i, g := range f.Results {
		switch {
		case g.Index < f.FirstGame || g.Index >= f.EndGame || (i > 0 && f.Results[i-1].Index >= g.Index):
			return bad("game %d out of order or outside the shard's games [%d,%d)", g.Index, f.FirstGame, f.EndGame)
		case g.Seed != GameSeed(f.Seed, g.Index):
			return bad("game %d has seed %d; tournament seed %d gives it %d", g.Index, g.Seed, f.Seed, GameSeed(f.Seed, g.Index))
		case len(g.Scores) != f.Options.Players:
			return bad("game %d has %d scores for %d players", g.Index, len(g.Scores), f.Options.Players)
		}
		seats = f.Schedule.Seats(g.Index, len(f.Agents), f.Options.Players, seats)
		if !slices.Equal(seats, g.Agents) {
			return bad("game %d seats agents %v; the %s schedule gives %v", g.Index, g.Agents, f.Schedule.orNone(), seats)
		}
		if err := checkScores(g); err != nil {
			return bad("game %d: %v", g.Index, err)
		}
	}
	if !f.Interrupted && len(f.Results) != f.EndGame-f.FirstGame {
		return bad("%d games for the shard's %d, and not marked interrupted", len(f.Results), f.EndGame-f.FirstGame)
	}
	return nil
}

// seatedBy is the schedule that decided the seats (SeatedBy: none for no more agents than
// seats, so a file from before schedules joins a new one).
func (f *ResultsFile) seatedBy() Schedule {
	return SeatedBy(f.Schedule, len(f.Agents), f.Options.Players)
}

// SameTournament says how f's tournament differs from g's ("" when they are shards of one).
func (f *ResultsFile) SameTournament(g *ResultsFile) string {
	fo, gold := f.Options, g.Options
	fo.Seed, gold.Seed = 0, 0
	switch {
	case !slices.Equal(f.Agents, g.Agents):
		return fmt.Sprintf("agents %s, not %s", strings.Join(f.Agents, ","), strings.Join(g.Agents, ","))
	case fo != gold:
		return fmt.Sprintf("options %+v, not %+v", fo, gold)
	case f.Seed != g.Seed:
		return fmt.Sprintf("seed %d, not %d", f.Seed, g.Seed)
	case f.Games != g.Games:
		return fmt.Sprintf("%d games, not %d", f.Games, g.Games)
	case max(f.Batch, 1) != max(g.Batch, 1):
		return fmt.Sprintf("batch %d, not %d", f.Batch, g.Batch)
	case f.seatedBy() != g.seatedBy():
		return fmt.Sprintf("schedule %s, not %s", f.seatedBy(), g.seatedBy())
	case f.ToolVersion != g.ToolVersion:
		return fmt.Sprintf("tool version %s, not %s", f.ToolVersion, g.ToolVersion)
	}
	return ""
}

// Merge joins the results files of a tournament's shards (names are their paths, for
// messages) into the Result one run with the same settings returns: the same games in the same
// order, so Summarize and RatingModel.Rate give the same tables, intervals and ratings. It
// refuses files of different tournaments, a game held twice, and games held by none (naming
// the range and the interrupted shard that should have played it).
func Merge(files []*ResultsFile, names []string) (*Result, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrMerge, fmt.Sprintf(format, args...))
	}
	if len(files) == 0 {
		return nil, bad("no results files named")
	}
	if len(names) != len(files) {
		names = make([]string, len(files))
		for i := range names {
			names[i] = fmt.Sprintf("results file %d", i+1)
		}
	}
	for i, f := range files {
		if err := f.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
	}
	f0 := files[0]
	for i, f := range files[1:] {
		if d := f.SameTournament(f0); d != "" {
			return nil, bad("%s has %s (as %s); shards of one tournament share every setting", names[i+1], d, names[0])
		}
	}
	// Every game once: sort the games of all files by index, then duplicates are neighbours
	// and missing games are the gaps (no table sized by the game count a file claims).
	type held struct{ g, file int }
	var all []held
	for i, f := range files {
		for _, g := range f.Results {
			all = append(all, held{g.Index, i})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].g < all[j].g || (all[i].g == all[j].g && all[i].file < all[j].file) })
	var missing []string
	nMissing := 0
	gap := func(lo, hi int) {
		nMissing += hi - lo
		msg := fmt.Sprintf("games [%d,%d)", lo, hi)
		var who []string
		for i, f := range files {
			if f.FirstGame < hi && lo < f.EndGame {
				who = append(who, fmt.Sprintf("shard %s in %s was interrupted after %d of %d games", f.Shard, names[i], len(f.Results), f.EndGame-f.FirstGame))
			}
		}
		if len(who) > 0 {
			msg += ": " + strings.Join(who, ", ") + " (run it again)"
		} else {
			msg += ": no file named holds them"
		}
		missing = append(missing, msg)
	}
	next := 0
	for i, h := range all {
		if i > 0 && all[i-1].g == h.g {
			return nil, bad("game %d is in both %s and %s", h.g, names[all[i-1].file], names[h.file])
		}
		if h.g > next {
			gap(next, h.g)
		}
		next = h.g + 1
	}
	if next < f0.Games {
		gap(next, f0.Games)
	}
	if len(missing) > 0 {
		if len(missing) > 8 {
			missing = append(missing[:8], fmt.Sprintf("and %d more ranges", len(missing)-8))
		}
		return nil, bad("%d of %d games missing: %s", nMissing, f0.Games, strings.Join(missing, "; "))
	}
	res := &Result{Agents: slices.Clone(f0.Agents), Options: f0.Options, Seed: f0.Seed, Requested: f0.Games, Schedule: f0.Schedule,
		Games: make([]GameResult, 0, len(all))}
	for _, f := range files {
		res.Games = append(res.Games, f.Results...)
	}
	sort.Slice(res.Games, func(i, j int) bool { return res.Games[i].Index < res.Games[j].Index })
	return res, nil
}
