package eval

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Over one whole cycle (every set of players agents, each for players games) the balanced
// schedule seats every agent in every seat equally often and makes every pair of agents meet
// equally often, for every ladder size the command accepts.
func TestScheduleBalanced_EveryPairMeetsEquallyOftenOverACycle(t *testing.T) {
	for _, tc := range []struct{ agents, players int }{{6, 3}, {8, 4}, {7, 5}, {16, 5}, {16, 3}} {
		n := len(agentSets(tc.agents, tc.players)) / tc.players
		if want := binomial(tc.agents, tc.players); n != want {
			t.Fatalf("%+v: %d sets, want C = %d", tc, n, want)
		}
		seat := make([][]int, tc.agents)
		for a := range seat {
			seat[a] = make([]int, tc.players)
		}
		meet := map[[2]int]int{}
		var seats []int
		for g := 0; g < n*tc.players; g++ {
			seats = ScheduleBalanced.Seats(g, tc.agents, tc.players, seats)
			if len(seats) != tc.players {
				t.Fatalf("%+v game %d: %v", tc, g, seats)
			}
			sorted := slices.Sorted(slices.Values(seats))
			if len(slices.Compact(sorted)) != tc.players {
				t.Fatalf("%+v game %d seats an agent twice: %v", tc, g, seats)
			}
			for s, a := range seats {
				seat[a][s]++
				for _, b := range seats[s+1:] {
					meet[[2]int{min(a, b), max(a, b)}]++
				}
			}
		}
		wantSeat := binomial(tc.agents-1, tc.players-1)
		for a := range seat {
			for s, c := range seat[a] {
				if c != wantSeat {
					t.Fatalf("%+v: agent %d sat in seat %d %d times, want %d", tc, a, s, c, wantSeat)
				}
			}
		}
		wantMeet := binomial(tc.agents-2, tc.players-2) * tc.players
		if len(meet) != tc.agents*(tc.agents-1)/2 {
			t.Fatalf("%+v: %d pairs met, want all %d", tc, len(meet), tc.agents*(tc.agents-1)/2)
		}
		for p, c := range meet {
			if c != wantMeet {
				t.Fatalf("%+v: agents %v met %d times, want %d", tc, p, c, wantMeet)
			}
		}
	}
}

func binomial(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// The window schedule meets only neighbours in the list: the reason balanced is the default.
// In 8-agent 4-player ladders, agents 0 and 4 never meet under window; under balanced they
// do within the first cycle.
func TestScheduleWindow_NeverSeatsAgentsFarApartInTheList(t *testing.T) {
	met := func(sc Schedule, games int) int {
		n := 0
		var seats []int
		for g := 0; g < games; g++ {
			seats = sc.Seats(g, 8, 4, seats)
			if slices.Contains(seats, 0) && slices.Contains(seats, 4) {
				n++
			}
		}
		return n
	}
	if n := met(ScheduleWindow, 280); n != 0 {
		t.Fatalf("window seated agents 0 and 4 together %d times", n)
	}
	if n := met(ScheduleBalanced, 280); n != 60 {
		t.Fatalf("balanced seated agents 0 and 4 together %d times in a cycle, want 60", n)
	}
}

// With as many agents as seats or fewer every schedule is the plain rotation, so evaluations
// made before schedules existed replay identically; "" is the window schedule.
func TestSchedule_FewAgentsAreThePlainRotation(t *testing.T) {
	for _, tc := range []struct{ agents, players int }{{4, 4}, {2, 4}, {3, 5}, {1, 3}, {5, 5}} {
		for g := 0; g < 40; g++ {
			w := SeatAgents(g, tc.agents, tc.players, nil)
			for _, sc := range []Schedule{ScheduleBalanced, ScheduleWindow, ""} {
				if got := sc.Seats(g, tc.agents, tc.players, nil); !slices.Equal(got, w) {
					t.Fatalf("%+v game %d %q: %v, want %v", tc, g, sc, got, w)
				}
			}
		}
	}
	for g := 0; g < 40; g++ {
		if !slices.Equal(Schedule("").Seats(g, 8, 4, nil), SeatAgents(g, 8, 4, nil)) {
			t.Fatal("the empty schedule is not the window")
		}
	}
}

// The balanced order is fixed forever (results files are validated against it): the first
// games of an 8-agent 4-player ladder are pinned.
func TestScheduleBalanced_OrderIsPinned(t *testing.T) {
	var got []string
	for g := 0; g < 8; g += 4 {
		got = append(got, fmt.Sprint(ScheduleBalanced.Seats(g, 8, 4, nil)))
	}
	got = append(got, fmt.Sprint(ScheduleBalanced.Seats(1, 8, 4, nil)))
	want := pinnedBalanced
	if strings.Join(got, " ") != want {
		t.Fatalf("balanced order changed: %s, pinned %s", strings.Join(got, " "), want)
	}
}

const pinnedBalanced = "[0 1 4 7] [0 1 3 6] [1 4 7 0]"

// A balanced tournament with more agents than seats plays the schedule's seats, its shards
// merge into the one run, and a results file is validated against its own schedule: the
// same games claimed under another schedule, or shards of two schedules, are refused.
func TestRun_BalancedScheduleSeatsAndMerges(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer", "valuer", "shipper", "manufacturer")
	cfg.Schedule, cfg.Games = ScheduleBalanced, 16
	one, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if one.Schedule != ScheduleBalanced {
		t.Fatalf("result schedule %q", one.Schedule)
	}
	for _, g := range one.Games {
		if want := ScheduleBalanced.Seats(g.Index, 6, 4, nil); !slices.Equal(g.Agents, want) {
			t.Fatalf("game %d seated %v, the schedule says %v", g.Index, g.Agents, want)
		}
	}
	files, names := runShards(t, cfg, 2)
	merged, err := Merge(files, names)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, merged) {
		t.Fatal("merged balanced shards differ from one run")
	}
	relabelled := *files[0]
	relabelled.Schedule = ""
	if err := relabelled.Validate(); !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), "window schedule gives") {
		t.Fatalf("balanced games claimed under the window schedule: %v", err)
	}
	w := cfg
	w.Schedule = ScheduleWindow
	wfiles, _ := runShards(t, w, 2)
	if _, err := Merge([]*ResultsFile{files[0], wfiles[1]}, names); !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), "schedule") {
		t.Fatalf("shards of two schedules merged: %v", err)
	}
	bad := *files[0]
	bad.Schedule = "spiral"
	if err := bad.Validate(); !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), "spiral") {
		t.Fatalf("unknown schedule: %v", err)
	}
	cfg.Schedule = "spiral"
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrConfig) {
		t.Fatalf("Run with an unknown schedule: %v", err)
	}
}

// With no more agents than seats the schedule does not change a game, so a results file
// without one (written before schedules) and a new balanced one are shards of one tournament.
func TestMerge_ScheduleIrrelevantWithFewAgents(t *testing.T) {
	cfg := smallConfig("valuer", "shipper", "manufacturer")
	cfg.Games, cfg.Schedule = 6, ScheduleBalanced
	files, names := runShards(t, cfg, 2)
	old := *files[0]
	old.Schedule = ""
	if _, err := Merge([]*ResultsFile{&old, files[1]}, names); err != nil {
		t.Fatalf("an old 3-agent shard and a new one: %v", err)
	}
}
