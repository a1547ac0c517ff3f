package eval

import (
	"fmt"
	"strings"
	"sync"
)

// Schedule says which agents sit at which seats in each game of a tournament. It matters
// only when a tournament names more agents than a game has seats (a rating ladder); with as
// many agents as seats or fewer, every schedule is the plain seat rotation of SeatAgents.
type Schedule string

const (
	// ScheduleBalanced cycles through every set of players agents (in a fixed shuffled
	// order, the same for every seed), each set for players consecutive games with its
	// members rotated through the seats. Over every C(agents, players)·players games each
	// agent plays every seat equally often and every pair of agents meets equally often, so
	// a ladder's ratings compare each agent with all the others, whatever the list's order.
	ScheduleBalanced Schedule = "balanced"
	// ScheduleWindow seats agents g, g+1, ... (mod agents) in game g (SeatAgents): a window
	// rotating along the list, so each agent meets only those near it in the list. The only
	// schedule before commit 9f10f48 (2026-12-02), and what a results file without a
	// schedule was made with.
	ScheduleWindow Schedule = "window"
)

// MaxScheduleAgents bounds the agents of a tournament with a schedule (every set of 5 of 32
// agents is 201,376 sets, about 1 MB).
const MaxScheduleAgents = 32

// Schedules are the accepted schedules.
var Schedules = []Schedule{ScheduleBalanced, ScheduleWindow}

// ParseSchedule reads a schedule name (case-insensitive).
func ParseSchedule(s string) (Schedule, error) {
	for _, sc := range Schedules {
		if strings.EqualFold(strings.TrimSpace(s), string(sc)) {
			return sc, nil
		}
	}
	return "", fmt.Errorf("%w: schedule %q: want balanced (every set of agents in turn) or window (a window rotating along the list)", ErrConfig, s)
}

// orNone is the schedule a results file or configuration without one means.
func (sc Schedule) orNone() Schedule {
	if sc == "" {
		return ScheduleWindow
	}
	return sc
}

// check refuses a schedule this build does not know ("" is the window) and a balanced one
// over more than MaxScheduleAgents agents.
func (sc Schedule) check(agents int) error {
	switch {
	case sc != "" && sc != ScheduleBalanced && sc != ScheduleWindow:
		return fmt.Errorf("schedule %q: this build knows %q and %q", sc, ScheduleBalanced, ScheduleWindow)
	case sc == ScheduleBalanced && agents > MaxScheduleAgents:
		return fmt.Errorf("%d agents; the balanced schedule seats at most %d", agents, MaxScheduleAgents)
	}
	return nil
}

// SeatedBy is the schedule that decided the seats of a tournament of agents over players
// seats: "" when there are no more agents than seats (every schedule is then the plain
// rotation), else sc ("" read as the window).
func SeatedBy(sc Schedule, agents, players int) Schedule {
	if agents <= players {
		return ""
	}
	return sc.orNone()
}

// Seats returns the agent index of each seat in game g under the schedule ("" is
// ScheduleWindow).
func (sc Schedule) Seats(g, agents, players int, dst []int) []int {
	if sc.orNone() == ScheduleWindow || agents <= players {
		return SeatAgents(g, agents, players, dst)
	}
	sets := agentSets(agents, players)
	n := len(sets) / players
	block, r := g/players, g%players
	set := sets[(block%n)*players : (block%n+1)*players]
	dst = dst[:0]
	for s := 0; s < players; s++ {
		dst = append(dst, int(set[(s+r)%players]))
	}
	return dst
}

var agentSetCache sync.Map // [2]int{agents, players} -> []uint8

// agentSets returns every set of players agents out of agents (ascending within a set),
// flattened, in a fixed pseudo-random order: a truncated cycle (a ladder of fewer games than
// a whole cycle) still spreads the meetings over all pairs instead of favouring agent 0.
func agentSets(agents, players int) []uint8 {
	key := [2]int{agents, players}
	if v, ok := agentSetCache.Load(key); ok {
		return v.([]uint8)
	}
	var sets [][]uint8
	cur := make([]uint8, 0, players)
	var rec func(next int)
	rec = func(next int) {
		if len(cur) == players {
			sets = append(sets, append([]uint8(nil), cur...))
			return
		}
		for a := next; a <= agents-(players-len(cur)); a++ {
			cur = append(cur, uint8(a))
			rec(a + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	// Fisher-Yates with the package's SplitMix finaliser: fixed forever, independent of the
	// standard library's shuffling.
	for i := len(sets) - 1; i > 0; i-- {
		j := int(mix(uint64(agents)<<32|uint64(players)<<16^uint64(i)) % uint64(i+1))
		sets[i], sets[j] = sets[j], sets[i]
	}
	flat := make([]uint8, 0, len(sets)*players)
	for _, s := range sets {
		flat = append(flat, s...)
	}
	v, _ := agentSetCache.LoadOrStore(key, flat)
	return v.([]uint8)
}
