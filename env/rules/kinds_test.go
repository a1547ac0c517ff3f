package rules

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The kind table is complete: every kind has a distinct name and notation words, at least
// one id, and the ids of all kinds tile [0, NumDistinctActions) in kind order (241 ids,
// actions-v2).
func TestKindTableDescribesEveryKindOnce(t *testing.T) {
	names, words := map[string]MoveKind{}, map[string]MoveKind{}
	next := 0
	for k := range NumMoveKinds {
		ki := kinds[k]
		if ki.name == "" || ki.size <= 0 || ki.phases == 0 {
			t.Errorf("kind %d: name %q, %d ids, phases %b", k, ki.name, ki.size, ki.phases)
		}
		if prev, dup := names[ki.name]; dup {
			t.Errorf("kinds %d and %d are both named %q", prev, k, ki.name)
		}
		names[ki.name] = k
		if prev, dup := words[ki.words]; dup {
			t.Errorf("kinds %d and %d are both written %q", prev, k, ki.words)
		}
		words[ki.words] = k
		if got, ok := KindByName(k.String()); !ok || got != k {
			t.Errorf("KindByName(%q) = %d, %v", k.String(), got, ok)
		}
		first, count := KindBase(k)
		if first != next || count != ki.size {
			t.Errorf("kind %s: ids %d+%d, want %d+%d", k, first, count, next, ki.size)
		}
		for i := range count {
			if got, off, ok := ActionKind(first + i); !ok || got != k || off != i {
				t.Errorf("ActionKind(%d) = %s, %d, %v; want %s, %d", first+i, got, off, ok, k, i)
			}
		}
		next += count
	}
	if next != NumDistinctActions() || next != 241 || ActionLayoutVersion != "actions-v2" {
		t.Errorf("%d ids (%d), layout %s; want 241 under actions-v2", next, NumDistinctActions(), ActionLayoutVersion)
	}
	if _, _, ok := ActionKind(-1); ok {
		t.Error("ActionKind(-1) is ok")
	}
	if _, _, ok := ActionKind(next); ok {
		t.Error("ActionKind(NumDistinctActions()) is ok")
	}
	if SailHarbor.String() != "sail-harbor" || MoveKind(200).String() != "kind(200)" {
		t.Errorf("names %q, %q", SailHarbor.String(), MoveKind(200).String())
	}
}

// oldNotation is Move.String as builds before the kind table wrote it (frozen here): the
// spellings records, scripts and playthroughs of those builds hold.
func oldNotation(m Move) string {
	seat := func(s int8) string { return "p" + strconv.Itoa(int(s)+1) }
	switch m.Kind {
	case SailHarbor:
		return "sail:" + seat(m.Seat)
	case PickColour:
		return "color:" + m.Colour.String() // also read before; written colour:
	}
	return m.String()
}

// every decodes every action id for the decider of s.
func every(s *State, f func(id int, m Move)) {
	for id := range NumDistinctActions() {
		f(id, s.ActionToMove(id))
	}
}

// Every id of every kind, decoded for deciders at every seat of 3-5 player games: its
// notation, its old spelling, the upper-case and abbreviated forms parse to the same move,
// and the move encodes back to the id; its generic action name is the notation with seats
// relative to the decider.
func TestParseMoveReadsEveryOldSpellingOfEveryKind(t *testing.T) {
	seen := map[MoveKind]bool{}
	for _, o := range []Options{{Players: 3}, {Players: 4, Modules: AllModules}, {Players: 5}} {
		g, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		for seat := 0; seat < o.Players; seat++ {
			s := g.NewInitialStateSeed(uint64(seat))
			s.machine.Decider = int8(seat)
			s.machine.AmountBase = 100 * int32(seat%2)
			every(s, func(id int, m Move) {
				if m.Seat < 0 {
					return // a seat this game does not have
				}
				seen[m.Kind] = true
				spellings := []string{m.String(), oldNotation(m), strings.ToUpper(m.String())}
				if m.Kind == PickColour || m.Kind == BuildFactory {
					spellings = append(spellings, strings.TrimSuffix(m.String(), m.Colour.String())+m.Colour.String()[:1])
				}
				if m.Kind == PickColour && m.Colour == Gold {
					spellings[len(spellings)-1] = "colour:o"
				}
				for _, text := range spellings {
					p, err := s.ParseMove(text)
					if err != nil || p != m {
						t.Fatalf("%dp decider p%d id %d: ParseMove(%q) = %+v, %v; want %+v", o.Players, seat+1, id, text, p, err, m)
					}
				}
				if back, ok := s.MoveToAction(m); !ok || back != id {
					t.Fatalf("id %d %s encodes to %d, %v", id, m, back, ok)
				}
				rel := m
				rel.Seat = int8(s.rel(int(m.Seat)))
				rel.Amount -= s.machine.AmountBase
				if want := rel.text(true); ActionName(id) != want {
					t.Fatalf("id %d: ActionName %q, want %q", id, ActionName(id), want)
				}
			})
		}
	}
	if len(seen) != int(NumMoveKinds) {
		t.Errorf("%d kinds decoded, want %d", len(seen), NumMoveKinds)
	}
	// The one old spelling that differs from the new one, by hand.
	g, _ := NewGame(Options{Players: 4})
	s := g.NewInitialStateSeed(1)
	for _, pair := range [][2]string{{"sail:p2", "sail:harbor:p2"}, {"color:red", "colour:red"}, {"SAIL:P4", "sail:harbor:p4"}} {
		a, errA := s.ParseMove(pair[0])
		b, errB := s.ParseMove(pair[1])
		if errA != nil || errB != nil || a != b || a.String() != pair[1] {
			t.Errorf("%q -> %v %v, %q -> %v %v", pair[0], a, errA, pair[1], b, errB)
		}
	}
}

// The golden playthroughs as earlier builds wrote them (testdata/notation/playthroughs-old.txt:
// every legal move and chosen move, "id=notation", with sail:pN) replay move for move: each
// recorded spelling parses to the move of its id, and the chosen ids drive the same games.
func TestParseMoveReadsRecordedOldSpellings(t *testing.T) {
	f, err := os.Open("testdata/notation/playthroughs-old.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var s *State
	var r *rand.Rand
	var ids []int
	checked, games := 0, 0
	check := func(field string) int {
		idText, text, ok := strings.Cut(field, "=")
		id, err := strconv.Atoi(idText)
		if !ok || err != nil {
			t.Fatalf("bad field %q", field)
		}
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		if want := s.ActionToMove(id); m != want {
			t.Fatalf("%q parses to %+v, id %d is %+v", text, m, id, want)
		}
		checked++
		return id
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "== "):
			name := strings.TrimPrefix(line, "== ")
			found := false
			for _, pc := range playthroughConfigs {
				if pc.name == name {
					g, err := NewGame(pc.opts)
					if err != nil {
						t.Fatal(err)
					}
					s, r, found = g.NewInitialStateSeed(pc.seed), rand.New(rand.NewPCG(pc.seed, 0x706c6179)), true
				}
			}
			if !found {
				t.Fatalf("no playthrough %q", name)
			}
			games++
		case strings.HasPrefix(line, "--- step"):
			ids = s.LegalActions(ids)
		case strings.HasPrefix(line, "chosen: "):
			id := check(strings.TrimPrefix(line, "chosen: "))
			if want := ids[r.IntN(len(ids))]; id != want {
				t.Fatalf("recorded choice %d, the seeded game chooses %d", id, want)
			}
			if err := s.ApplyChecked(id); err != nil {
				t.Fatal(err)
			}
		default:
			for _, field := range strings.Fields(line) {
				check(field)
			}
		}
	}
	if games != len(playthroughConfigs) || checked < 1000 {
		t.Fatalf("%d games, %d moves checked", games, checked)
	}
}

// The kind table's phases are right: in random games of every module, every legal move's
// kind lists the phase it is legal in.
func TestLegalMovesAreInTheirKindsPhases(t *testing.T) {
	for _, o := range []Options{{Players: 3}, {Players: 4, Modules: AllModules}, {Players: 5, Variant: Classic}} {
		g, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(4) {
			s := g.NewInitialStateSeed(seed)
			r := rand.New(rand.NewPCG(seed, 9))
			var ids []int
			for !s.IsTerminal() {
				ids = s.LegalActions(ids)
				ph := s.Decision().Phase
				for _, id := range ids {
					if k, _, _ := ActionKind(id); !k.Phases().Has(ph) {
						t.Fatalf("%s: %s is legal in phase %s, not among its kind's phases", fmt.Sprint(o.Players, "p"), s.ActionToMove(id), ph)
					}
				}
				s.Apply(ids[r.IntN(len(ids))])
			}
		}
	}
}

// The id table of docs/RULES.md section 11 is the kind table: one row per kind, in id order,
// with the kind's id range, and a notation example that parses to a move of that kind.
func TestRulesDocIDTableMatchesTheKindTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/RULES.md")
	if err != nil {
		t.Skip("docs/RULES.md not found:", err)
	}
	_, sec, ok := strings.Cut(string(b), "## 11. Action-id layout")
	if !ok {
		t.Fatal("docs/RULES.md has no section 11")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	g, _ := NewGame(Options{Players: 5, Modules: AllModules})
	s := g.NewInitialStateSeed(1)
	k := MoveKind(0)
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 7 || !strings.Contains(cells[4], "`") {
			continue
		}
		if k >= NumMoveKinds {
			t.Fatalf("more rows than kinds: %s", line)
		}
		first, count := KindBase(k)
		ids := strconv.Itoa(first)
		if count > 1 {
			ids += "-" + strconv.Itoa(first+count-1)
		}
		if got := strings.TrimSpace(cells[2]); got != ids {
			t.Errorf("kind %s: the doc gives ids %s, the table %s", k, got, ids)
		}
		example := strings.Trim(strings.Fields(cells[4])[0], "`")
		if m, err := s.ParseMove(example); err != nil || m.Kind != k || m.String() != example {
			t.Errorf("kind %s: the doc's notation %q parses to %v (%v), written %q", k, example, m.Kind, err, m.String())
		}
		k++
	}
	if k != NumMoveKinds {
		t.Errorf("the doc has %d rows, the table %d kinds", k, NumMoveKinds)
	}
}

// A game record written by an earlier build (harbor sails as sail:pN) still loads: every move
// parses, the game replays and the checksum of the final position matches.
func TestRecordWithOldSpellingsLoads(t *testing.T) {
	g, err := NewGame(Options{Players: 4, TurnLimit: 30})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(2)
	r := rand.New(rand.NewPCG(2, 2))
	var ids []int
	sails := 0
	for !s.IsTerminal() {
		ids = s.LegalActions(ids)
		id := ids[r.IntN(len(ids))]
		for _, a := range ids { // prefer a harbor sail, so the record holds some
			if k, _, _ := ActionKind(a); k == SailHarbor {
				id, sails = a, sails+1
				break
			}
		}
		s.Apply(id)
	}
	data, err := NewRecord(s, 2).MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if sails == 0 || !strings.Contains(text, `"sail:harbor:p`) {
		t.Fatalf("%d harbor sails; the record does not spell them sail:harbor:pN", sails)
	}
	old := strings.ReplaceAll(text, `"sail:harbor:p`, `"sail:p`)
	rec, end, err := LoadRecord([]byte(old))
	if err != nil {
		t.Fatalf("the old-spelling record does not load: %v", err)
	}
	if end.Hash() != s.Hash() || len(rec.Moves) != int(s.Steps) {
		t.Fatalf("replayed to %016x after %d moves, want %016x after %d", end.Hash(), len(rec.Moves), s.Hash(), s.Steps)
	}
}
