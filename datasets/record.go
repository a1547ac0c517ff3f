package datasets

import "time"

// Step is one decision of a game: one row of the steps table. Slices are read, not kept, by
// writers, so callers may reuse their buffers.
type Step struct {
	GameID  uint64
	Step    int32 // decision index in the game, from 0
	Turn    int32 // turn number (0 on the first turn)
	Decider int8  // seat that decided
	Phase   uint8 // index into Meta.PhaseNames
	// Obs is the decider's observation, Meta.ObsDim floats.
	Obs []float32
	// Legal lists the legal action ids (any order); the writer packs them into legal_mask.
	Legal      []int
	Action     int32
	ActionText string
	// Reward is the decider's reward for this step.
	Reward float32
	// Done is true on the last decision of the game.
	Done bool
	// Returns is every seat's return-to-go from this step (Meta.Seats floats); see ReturnsToGo.
	Returns []float32
	// Policy is the behaviour policy's probability of every action id (Meta.NumActions
	// floats); used only when Meta.Policy.
	Policy []float32
	// Value is the behaviour policy's value estimate for the decider; used only when Meta.Value.
	Value float32
}

// Score is one seat's final-scoring breakdown.
type Score struct {
	Cash              int32
	Island            int32
	Leftover          int32
	Loans             int32
	Total             int32
	Discarded         string // colour discarded as most common ("" if none)
	DiscardedCount    int32
	GoldAs            string // colour gold counted as ("" if no gold)
	AllColours        bool
	FactoryContainers int32
	Rank              int8 // 1 = winner
	Winner            bool
}

// Game is one finished game: one row of the games table.
type Game struct {
	GameID  uint64
	Seed    uint64
	Options string   // the game's rules options as JSON
	Agents  []string // agent name per seat (Meta.Seats)
	Scores  []Score  // final scoring per seat (Meta.Seats)
	Winners []int8   // winning seats, ascending
	// Length is the number of decisions (rows in the steps table).
	Length    int32
	Turns     int32
	EndReason string
	Duration  time.Duration // wall-clock time to play (the only non-deterministic column)
}

// ReturnsToGo fills returns (T*seats floats, row t = step t) with every seat's undiscounted
// sum of rewards from step t to the end, given rewards (T*seats floats: the reward each seat
// received at step t). It allocates nothing.
func ReturnsToGo(rewards []float32, seats int, returns []float32) {
	T := len(rewards) / seats
	for s := 0; s < seats; s++ {
		var acc float32
		for t := T - 1; t >= 0; t-- {
			acc += rewards[t*seats+s]
			returns[t*seats+s] = acc
		}
	}
}
