package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireEngine skips a test while the rules engine still has contract stubs (they panic with
// "not implemented"); any other panic is a real failure.
func requireEngine(t *testing.T) {
	t.Helper()
	stub := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				if fmt.Sprint(r) != "not implemented" {
					panic(r)
				}
				stub = true
			}
		}()
		g, err := rules.NewGame(rules.DefaultOptions())
		require.NoError(t, err)
		s := g.NewInitialState()
		s.LegalActions(nil)
		s.Decision()
		s.LegalMoves(nil)
		s.Scores()
		v := g.NewInitialState()
		s.Redact(0, v)
	}()
	if stub {
		t.Skip("rules engine not implemented yet")
	}
}

func defaultPlayOptions() playOptions {
	return playOptions{gameFlags: gameFlags{players: 4, variant: "base", length: "standard"}, opponents: "random", seed: 1}
}

func TestPlaySetupRejectsBadOptions(t *testing.T) {
	cases := []struct {
		name string
		edit func(*playOptions)
		want string
	}{
		{"too many players", func(o *playOptions) { o.players = 7 }, "players"},
		{"seat past the table", func(o *playOptions) { o.seat = 4 }, "--seat 4 is outside 0..3"},
		{"negative seat", func(o *playOptions) { o.seat = -1 }, "--seat -1"},
		{"wrong number of opponents", func(o *playOptions) { o.opponents = "random,random" }, "names 2 bots, want 1 or 3"},
		{"unknown variant", func(o *playOptions) { o.variant = "deluxe" }, "deluxe"},
		{"unknown length", func(o *playOptions) { o.length = "epic" }, "epic"},
		{"negative turn limit", func(o *playOptions) { o.turnLimit = -3 }, "--turn-limit -3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := defaultPlayOptions()
			c.edit(&o)
			_, _, err := playSetup(o)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "play: "), err.Error())
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestPlaySetupUnknownBotWrapsSentinel(t *testing.T) {
	o := defaultPlayOptions()
	o.opponents = "random,no-such-bot,random"
	_, _, err := playSetup(o)
	require.ErrorIs(t, err, bots.ErrUnknownBot)
}

func TestPlaySetupSeatsOpponentsAroundTheHuman(t *testing.T) {
	o := defaultPlayOptions()
	o.seat = 1
	_, seats, err := playSetup(o)
	require.NoError(t, err)
	assert.Equal(t, []string{"random", "", "random", "random"}, seats)

	o.players, o.seat = 3, 2
	_, seats, err = playSetup(o)
	require.NoError(t, err)
	assert.Equal(t, []string{"random", "random", ""}, seats)
}

func TestPlayDefaultOpponentIsRegistered(t *testing.T) {
	// "default" is the trained bot when the training package registers it; otherwise play
	// falls back to the strongest registered scripted bot, never to an unknown name, and
	// never to a trained bot that has no model for the game's options.
	name := defaultOpponent(rules.DefaultOptions())
	_, ok := bots.Lookup(name)
	assert.True(t, ok, "default opponent %q is not registered", name)
	if _, trained := bots.Lookup(bots.DefaultName); !trained {
		assert.NotEqual(t, bots.DefaultName, name)
	}
	classic := rules.DefaultOptions()
	classic.Variant = rules.Classic
	if _, err := bots.New(bots.DefaultName, classic, 0); err != nil {
		assert.Equal(t, scriptedFallback[0], defaultOpponent(classic), "no trained model for classic games: %v", err)
	}
}

func TestPlayCommandBadFlagsGiveOneLineError(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--players", "9"},
		{"play", "--bogus"},
		{"play", "--seat", "x"},
		{"play", "--opponents", "nobody"},
	} {
		var out, errOut bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errOut)
		assert.NotEqual(t, 0, code, "%v", args)
		msg := errOut.String()
		assert.Equal(t, 1, strings.Count(msg, "\n"), "%v: %q", args, msg)
		assert.True(t, strings.HasPrefix(msg, "container: "), "%v: %q", args, msg)
	}
}

func TestPlayHelpHasExample(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, Main([]string{"play", "--help"}, strings.NewReader(""), &out, &errOut))
	assert.Contains(t, out.String(), "Examples:")
	assert.Contains(t, out.String(), "container play --players 3")
}

// scriptedInput answers every prompt with the first listed move, then $0 for amount phases.
func scriptedInput(lines int) string {
	var b strings.Builder
	for i := 0; i < lines; i++ {
		b.WriteString("1\n$0\n")
	}
	return b.String()
}

func TestPlayFullGameFromStdin(t *testing.T) {
	requireEngine(t)
	o := defaultPlayOptions()
	o.players, o.seat, o.turnLimit = 3, 1, 9
	var out bytes.Buffer
	err := runPlay(o, strings.NewReader(scriptedInput(20000)), &out)
	require.NoError(t, err, lastLines(out.String(), 30))
	text := out.String()
	assert.Contains(t, text, "Final score:")
	assert.Contains(t, text, "You are p2 (seat 1)")
	// The human (p2) sees their own scoring card on every board and never an opponent's.
	assert.Regexp(t, `(?m)^\s*\*?p2 cash .*\| card \d`, text)
	assert.NotRegexp(t, `(?m)^\s*\*?p[13] cash .*\| card \d`, text)
	// A sealed bid is announced without its amount and revealed once its round closes.
	if n := strings.Count(text, "placed a sealed bid"); n > 0 {
		assert.Contains(t, text, "Sealed bids revealed")
		last := strings.LastIndex(text, "placed a sealed bid")
		assert.Greater(t, strings.LastIndex(text, "Sealed bids revealed"), last)
	}
}

// In the terminal game a delivery auction's question names the cargo on offer by colour, as
// the web board does (the words come from the human's own view of the position).
func TestPlayDeliveryQuestionNamesTheCargo(t *testing.T) {
	requireEngine(t)
	opts := rules.DefaultOptions()
	opts.Players, opts.Seed = 3, 7
	g, err := rules.NewGame(opts)
	require.NoError(t, err)
	players := make([]bots.Bot, 3)
	for _, s := range []int{0, 2} {
		players[s], err = bots.New("valuer", opts, uint64(s)+1)
		require.NoError(t, err)
	}
	game, err := play.New(g, opts.Seed, 1, players)
	require.NoError(t, err)
	var out bytes.Buffer
	p := &playGame{Game: game, seat: 1, names: []string{"valuer", "", "valuer"}, out: &out}
	asked := 0
	for !p.Over() && asked < 3 {
		if !p.HumanToMove() {
			require.NoError(t, p.botMove())
			continue
		}
		d := p.State().Decision()
		if d.Phase == rules.PhaseDeliveryBid {
			out.Reset()
			p.printMoves(d)
			cargo := p.View().Players[d.Active].Ship
			require.Positive(t, cargo.Total())
			assert.Regexp(t, `^Your decision \(delivery-bid\): Bid for p[13]'s cargo \(\d (white|green|red|blue|yellow)[^)]*\): your sealed bid\n`, out.String())
			asked++
		}
		_, err := p.Play(p.State().LegalMoves(nil)[0])
		require.NoError(t, err)
	}
	require.Positive(t, asked, "the seeded game asked the human no delivery bid")
}

func TestPlayInputEndingEarlyIsAnError(t *testing.T) {
	requireEngine(t)
	o := defaultPlayOptions()
	var out bytes.Buffer
	err := runPlay(o, strings.NewReader(""), &out)
	require.ErrorIs(t, err, ErrPlayInput)
}

func TestPlayUndoRestoresThePosition(t *testing.T) {
	requireEngine(t)
	o := defaultPlayOptions()
	o.players, o.turnLimit = 3, 30
	opts, names, err := playSetup(o)
	require.NoError(t, err)
	g, err := rules.NewGame(opts)
	require.NoError(t, err)
	var out bytes.Buffer
	players := make([]bots.Bot, len(names))
	for s, n := range names {
		if n != "" {
			players[s], err = bots.New(n, opts, uint64(s))
			require.NoError(t, err)
		}
	}
	game, err := play.New(g, opts.Seed, 0, players)
	require.NoError(t, err)
	p := &playGame{Game: game, seat: 0, names: names, out: &out}
	undone := 0
	for !p.Over() && undone < 5 {
		d := p.State().Decision()
		if d.Decider != p.seat {
			require.NoError(t, p.botMove())
			continue
		}
		p.printMoves(d)
		before, turn := p.State().Hash(), p.State().Turn
		logLen := len(p.Log())
		// Produce starts a run of the producer's own decisions (placing the new containers).
		choice := "1"
		for i, m := range p.moves {
			if fmt.Sprint(m) == "produce" {
				choice = fmt.Sprint(i + 1)
			}
		}
		if p.amounts != nil {
			choice = fmt.Sprintf("$%d", d.MinAmount)
		}
		quit, err := p.human(choice)
		require.NoError(t, err)
		require.False(t, quit)
		require.Len(t, p.Log(), logLen+1, "the listed move %s was not applied:\n%s", choice, lastLines(out.String(), 10))
		if p.Over() || p.State().Decision().Decider != p.seat || p.State().Turn != turn {
			continue
		}
		_, err = p.human("undo")
		require.NoError(t, err)
		assert.Equal(t, before, p.State().Hash(), "undo must restore the position")
		assert.Len(t, p.Log(), logLen)
		undone++
		assert.Contains(t, out.String(), "undone: ")
		// Play on with the first listed move so the game does not repeat itself.
		p.printMoves(d)
		_, err = p.human("1")
		require.NoError(t, err)
	}
	if undone == 0 {
		t.Skip("no position where the human had two decisions in a row")
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func TestPlayCompletesBotNamesInTheOpponentList(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, Main([]string{"__complete", "play", "--opponents", "random,ran"}, strings.NewReader(""), &out, &errOut))
	assert.Contains(t, out.String(), "random,random\t")
	assert.NotContains(t, out.String(), "random,valuer")
}

func TestPlayReadsNotationAndExplainsBadInput(t *testing.T) {
	requireEngine(t)
	o := defaultPlayOptions()
	o.players, o.turnLimit = 3, 3
	// Bad inputs first (each is answered and the prompt repeats), then "end" in notation until
	// the game is over; other decisions take the first listed move.
	input := "nonsense\n999\n$x\n$5\nhelp\nboard\nundo\n" + strings.Repeat("end\n1\n$0\n", 200)
	var out bytes.Buffer
	require.NoError(t, runPlay(o, strings.NewReader(input), &out), lastLines(out.String(), 20))
	text := out.String()
	assert.Regexp(t, `\n> "nonsense" is not a move here; type a number 1-\d+, a move such as \S+, or help\n`, text)
	assert.Regexp(t, `\n> no move numbered 999; type a number 1-\d+, `, text)
	assert.Contains(t, text, `"$x" is not a move here; type a number 1-`)
	assert.Contains(t, text, "this decision takes no amount; type a number 1-")
	assert.Contains(t, text, "inputs: a listed move's number or its notation;")
	assert.NotContains(t, text, "rules:", "errors are in the player's words")
	assert.Contains(t, text, "nothing to undo")
	assert.Contains(t, text, "Final score:")
}

func TestPlayQuitAbandonsTheGame(t *testing.T) {
	requireEngine(t)
	var out bytes.Buffer
	require.NoError(t, runPlay(defaultPlayOptions(), strings.NewReader("quit\n"), &out))
	assert.Contains(t, out.String(), "Game abandoned.")
	assert.NotContains(t, out.String(), "Final score:")
}

// At an amount decision (a bid) a bare number is the amount, "$N" too; a listed move (taking
// a loan) is #N; a typo or a number out of range is one plain line saying what to type.
func TestPlayReadsANumberAtABidAsTheAmount(t *testing.T) {
	requireEngine(t)
	checked, withLoan := 0, 0
	for seed := uint64(1); seed <= 40 && (checked < 3 || withLoan == 0); seed++ {
		opts := rules.DefaultOptions()
		opts.Players, opts.Seed = 3, seed
		g, err := rules.NewGame(opts)
		require.NoError(t, err)
		players := make([]bots.Bot, 3)
		for _, s := range []int{1, 2} {
			players[s], err = bots.New("valuer", opts, uint64(s)+seed)
			require.NoError(t, err)
		}
		game, err := play.New(g, opts.Seed, 0, players)
		require.NoError(t, err)
		var out bytes.Buffer
		p := &playGame{Game: game, seat: 0, names: []string{"", "valuer", "valuer"}, out: &out}
		for !p.Over() {
			if !p.HumanToMove() {
				require.NoError(t, p.botMove())
				continue
			}
			d := p.State().Decision()
			out.Reset()
			p.printMoves(d)
			if p.amounts == nil {
				_, err := p.Play(p.State().LegalMoves(nil)[0])
				require.NoError(t, err)
				continue
			}
			am := *p.amounts
			listing := out.String()
			assert.Contains(t, listing, fmt.Sprintf("    N  an amount from $%d to $%d: type it as 5 or $5", am.Min, am.Max))
			for _, typo := range []string{"foo", fmt.Sprint(am.Max + 1), "#9", "#1"} {
				out.Reset()
				if typo == "#1" && len(p.moves) > 0 {
					continue
				}
				n := len(p.Log())
				_, err := p.human(typo)
				require.NoError(t, err)
				line := out.String()
				assert.Equal(t, n, len(p.Log()), "%q was played", typo)
				assert.Equal(t, 1, strings.Count(line, "\n"), "%q: %q", typo, line)
				assert.Contains(t, line, fmt.Sprintf("type an amount from $%d to $%d ($ optional)", am.Min, am.Max), typo)
				assert.NotContains(t, line, "(1..0)")
				assert.NotContains(t, line, "rules:")
			}
			if len(p.moves) > 0 {
				withLoan++
				assert.Regexp(t, `(?m)^   #1  loan `, listing)
				out.Reset()
				_, err := p.human("help")
				require.NoError(t, err)
				assert.Contains(t, out.String(), "#N or the notation for a listed move")
			}
			// A bare number is the amount; every other decision takes the first listed move.
			amount := am.Min + (am.Max-am.Min)/2
			typed := fmt.Sprint(amount)
			if checked%2 == 1 {
				typed = "$" + typed
			}
			n := len(p.Log())
			_, err := p.human(typed)
			require.NoError(t, err)
			require.Len(t, p.Log(), n+1, "%q at %s was not played: %s", typed, d.Phase, out.String())
			last := p.Log()[n]
			assert.Equal(t, rules.Move{Kind: rules.Amount, Amount: int32(amount)}, last.Move, "%q", typed)
			checked++
		}
	}
	require.GreaterOrEqual(t, checked, 3, "too few amount decisions")
	require.Positive(t, withLoan, "no amount decision offered a loan")
}

// `container play --opponents easy,medium,hard` seats the levels, each named with the agent it
// is for the game's options.
func TestPlaySetupAcceptsLevels(t *testing.T) {
	requireEngine(t)
	o := defaultPlayOptions()
	o.opponents = "easy,medium,hard"
	_, seats, err := playSetup(o)
	require.NoError(t, err)
	assert.Equal(t, []string{"", "easy", "medium", "hard"}, seats)
	o.players, o.turnLimit = 3, 2
	o.opponents = "easy"
	var out bytes.Buffer
	err = runPlay(o, strings.NewReader(scriptedInput(2000)), &out)
	require.NoError(t, err, lastLines(out.String(), 10))
	assert.Contains(t, out.String(), "(easy: shipper)")
}
