package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
)

// ErrPlayInput is wrapped when play's input ends before the game does.
var ErrPlayInput = errors.New("play: input ended before the game did")

// scriptedFallback lists the bots play uses, in order, when "default" (the shipped trained bot)
// is not registered: the strongest scripted bot first.
var scriptedFallback = []string{"valuer", "shipper", "manufacturer", "random"}

type playOptions struct {
	players   int
	seat      int
	opponents string
	seed      uint64
	variant   string
	length    string
	modules   string
	turnLimit int
}

func newPlayCmd() *cobra.Command {
	o := playOptions{}
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play a game in the terminal against bots",
		Long: `Play a full game of Container in the terminal against bots.

You see the board as your seat may see it (never an opponent's scoring card or an unrevealed
sealed bid), the legal moves numbered with their notation, and after each delivery auction the
revealed bids. Answer with a move's number, its notation, or $N for an amount (a bid). Other
inputs: "undo" takes back your last move while it is still your decision in the same turn and
no one else has moved since, "board" shows the board again, "help" lists the inputs, "quit"
abandons the game. The game ends with every seat's final-scoring breakdown.

Input is read line by line from stdin, so a game can be scripted.`,
		Example: `  container play
  container play --players 3 --seat 1 --opponents valuer,shipper
  printf '1\n1\n$3\n' | container play --players 3 --opponents random --turn-limit 5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPlay(o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.players, "players", 4, "number of players, 3 to 5")
	f.IntVar(&o.seat, "seat", 0, "your seat, 0 to players-1 (seat 0 is p1 on the board; who starts is drawn at setup)")
	f.StringVar(&o.opponents, "opponents", bots.DefaultName, "opponent bots: one name for all, or players-1 comma-separated names in seat order, skipping yours (see container bots); \"default\" is the trained bot where it has a model for the game's options, else the valuer")
	f.Uint64Var(&o.seed, "seed", 1, "setup seed (the game is fully determined by the options, the seed and the moves)")
	f.StringVar(&o.variant, "rules", "base", "rules variant: base (Off-Shore Bank) or classic")
	f.StringVar(&o.length, "length", "standard", "game length: short, standard or extended")
	f.StringVar(&o.modules, "modules", "", "More Containers modules, comma-separated (trucks, player-loans, luxury) or all")
	f.IntVar(&o.turnLimit, "turn-limit", 0, "end the game after this many turns (0: the rules' default limit)")
	_ = cmd.RegisterFlagCompletionFunc("opponents", completeBotList)
	_ = cmd.RegisterFlagCompletionFunc("rules", cobra.FixedCompletions([]string{"base", "classic"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("length", cobra.FixedCompletions([]string{"short", "standard", "extended"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// completeBotList completes the last name of a comma-separated bot list with the registered
// bot names.
func completeBotList(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	prefix := ""
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		prefix = toComplete[:i+1]
	}
	var out []string
	for _, info := range bots.List() {
		if strings.HasPrefix(prefix+info.Name, toComplete) {
			out = append(out, prefix+info.Name+"\t"+info.Description)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

func init() { register(newPlayCmd) }

// playSetup checks the options and returns the game options and one bot name per seat (the
// human's seat holds "").
func playSetup(o playOptions) (rules.Options, []string, error) {
	opts := rules.DefaultOptions()
	opts.Players = o.players
	opts.Seed = o.seed
	opts.TurnLimit = o.turnLimit
	if err := parseGameFlags(&opts, o.variant, o.length, o.modules); err != nil {
		return opts, nil, fmt.Errorf("play: %w", err)
	}
	if err := checkIntFlags(turnLimitFlag(o.turnLimit), intFlag{"players", o.players, 3, rules.MaxPlayers}); err != nil {
		return opts, nil, fmt.Errorf("play: %w", err)
	}
	if err := opts.Validate(); err != nil {
		return opts, nil, fmt.Errorf("play: %w", err)
	}
	if o.seat < 0 || o.seat >= o.players {
		return opts, nil, fmt.Errorf("play: --seat %d is outside 0..%d", o.seat, o.players-1)
	}
	names := bots.SplitAgents(o.opponents)
	if len(names) == 0 {
		names = []string{""}
	}
	switch {
	case len(names) == 1:
		for len(names) < o.players-1 {
			names = append(names, names[0])
		}
	case len(names) != o.players-1:
		return opts, nil, fmt.Errorf("play: --opponents names %d bots, want 1 or %d", len(names), o.players-1)
	}
	for i, n := range names {
		if n == bots.DefaultName {
			names[i] = defaultOpponent(opts)
		}
		if err := bots.Resolve(names[i]); err != nil {
			return opts, nil, fmt.Errorf("play: %w", err)
		}
	}
	seats := make([]string, 0, o.players)
	seats = append(seats, names[:o.seat]...)
	seats = append(seats, "")
	seats = append(seats, names[o.seat:]...)
	return opts, seats, nil
}

// defaultOpponent is "default" when the trained bot is registered and has a model for games
// with opts, else the strongest registered scripted bot.
func defaultOpponent(opts rules.Options) string {
	if _, err := bots.New(bots.DefaultName, opts, 0); err == nil {
		return bots.DefaultName
	}
	for _, n := range scriptedFallback {
		if _, ok := bots.Lookup(n); ok {
			return n
		}
	}
	return bots.DefaultName // unresolvable: Resolve reports what is known
}

// sealedPhase reports whether amounts chosen in phase p are sealed until every bidder has bid.
func sealedPhase(p rules.Phase) bool {
	return p == rules.PhaseDeliveryBid || p == rules.PhaseRunoffBid || p == rules.PhaseIncentiveBid
}

// logEntry is one applied move with who decided it and when.
type logEntry struct {
	move    rules.Move
	decider int
	turn    int32
	phase   rules.Phase
}

// canUndo reports whether the human at seat may take back the last move of log: it must be
// theirs, made in the current turn, and be the last thing that happened (no one else has seen
// it and acted since).
func canUndo(log []logEntry, seat int, turn int32) bool {
	if len(log) == 0 {
		return false
	}
	last := log[len(log)-1]
	return last.decider == seat && last.turn == turn
}

// playGame is one game in progress.
type playGame struct {
	game    *rules.Game
	state   *rules.State
	view    *rules.State
	seat    int
	names   []string // bot name per seat, "" for the human
	players []bots.Bot
	log     []logEntry
	sealed  []logEntry // sealed bids of the auction in progress, revealed when it closes
	out     io.Writer
	legal   []int
	moves   []rules.Move
}

func runPlay(o playOptions, in io.Reader, out io.Writer) error {
	opts, names, err := playSetup(o)
	if err != nil {
		return err
	}
	g, err := rules.NewGame(opts)
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	p := &playGame{game: g, state: g.NewInitialState(), view: g.NewInitialState(), seat: o.seat, names: names, out: out}
	p.players = make([]bots.Bot, len(names))
	for s, n := range names {
		if n == "" {
			continue
		}
		if p.players[s], err = bots.New(n, opts, opts.Seed+uint64(s)+1); err != nil {
			return fmt.Errorf("play: %w", err)
		}
		if bots.IsFileName(n) {
			p.names[s] = filepath.Base(n) // a trained bot's file, without its directory
		}
	}
	fmt.Fprintf(out, "Container, %d players (%s rules, %s game), seed %d. You are p%d (seat %d).\n",
		opts.Players, opts.Variant, opts.Length, opts.Seed, o.seat+1, o.seat)
	for s := range names {
		if s != o.seat {
			fmt.Fprintf(out, "  %s\n", p.seatName(s))
		}
	}
	sc := bufio.NewScanner(in)
	showBoard := true
	for !p.state.IsTerminal() {
		d := p.state.Decision()
		if d.Decider != p.seat {
			if err := p.botMove(d); err != nil {
				return err
			}
			showBoard = true
			continue
		}
		if showBoard {
			p.printBoard()
			showBoard = false
		}
		p.printMoves(d)
		fmt.Fprint(out, "> ")
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return fmt.Errorf("play: reading input: %w", err)
			}
			fmt.Fprintln(out)
			return ErrPlayInput
		}
		done, err := p.human(strings.TrimSpace(sc.Text()), d)
		if err != nil {
			return err
		}
		if done {
			fmt.Fprintln(out, "Game abandoned.")
			return nil
		}
	}
	p.closeSealed()
	p.printScores()
	return nil
}

// botMove lets the deciding bot act on its own redacted view.
func (p *playGame) botMove(d rules.Decision) error {
	b := p.players[d.Decider]
	p.state.Redact(d.Decider, p.view)
	p.legal = p.state.LegalActions(p.legal)
	id := b.Act(p.view, p.legal)
	m := p.state.ActionToMove(id)
	turn := p.state.Turn
	if err := p.state.ApplyChecked(id); err != nil {
		return fmt.Errorf("play: bot %s at seat %d: %w", b.Name(), d.Decider, err)
	}
	p.record(m, d, turn)
	return nil
}

// human handles one input line; done is true when the player quits.
func (p *playGame) human(line string, d rules.Decision) (done bool, err error) {
	switch strings.ToLower(line) {
	case "":
		return false, nil
	case "q", "quit", "exit":
		return true, nil
	case "h", "help", "?":
		fmt.Fprintln(p.out, `inputs: a move's number, its notation, $N for an amount, "undo", "board", "quit"`)
		return false, nil
	case "b", "board":
		p.printBoard()
		return false, nil
	case "u", "undo":
		return false, p.undo()
	}
	m, err := p.parse(line)
	if err != nil {
		fmt.Fprintf(p.out, "%v\n", err)
		return false, nil
	}
	turn := p.state.Turn
	if err := p.state.ApplyMoveChecked(m); err != nil {
		fmt.Fprintf(p.out, "not a legal move now: %v\n", err)
		return false, nil
	}
	p.record(m, d, turn)
	return false, nil
}

// parse reads a move number, $N or the notation.
func (p *playGame) parse(line string) (rules.Move, error) {
	if n, err := strconv.Atoi(line); err == nil {
		if n < 1 || n > len(p.moves) {
			return rules.Move{}, fmt.Errorf("no move numbered %d (1..%d)", n, len(p.moves))
		}
		return p.moves[n-1], nil
	}
	if rest, ok := strings.CutPrefix(line, "$"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 {
			return rules.Move{}, fmt.Errorf("%s is not an amount ($ and a whole number)", rules.Quote(line))
		}
		return rules.Move{Kind: rules.Amount, Amount: int32(n)}, nil
	}
	m, err := p.state.ParseMove(line)
	if err != nil {
		return rules.Move{}, fmt.Errorf("%s is neither a move number nor a move: %v", rules.Quote(line), err)
	}
	return m, nil
}

// record logs a move just applied (decided in turn, on decision d) and tells the human what
// happened, keeping sealed bids sealed until their auction closes.
func (p *playGame) record(m rules.Move, d rules.Decision, turn int32) {
	e := logEntry{move: m, decider: d.Decider, turn: turn, phase: d.Phase}
	p.log = append(p.log, e)
	switch {
	case sealedPhase(d.Phase) && m.Kind == rules.Amount:
		p.sealed = append(p.sealed, e)
		if d.Decider != p.seat {
			fmt.Fprintf(p.out, "%s placed a sealed bid\n", p.seatName(d.Decider))
		}
	case d.Decider != p.seat:
		fmt.Fprintf(p.out, "%s: %v\n", p.seatName(d.Decider), m)
	}
	p.closeSealed()
}

// loanPhase reports whether p is part of a loan request, which may interrupt an auction.
func loanPhase(p rules.Phase) bool {
	switch p {
	case rules.PhaseLoanOffer, rules.PhaseIncentiveBid, rules.PhaseLoanTie, rules.PhaseLoanAccept:
		return true
	}
	return false
}

// stillSealed reports whether bids made in phase bid stay sealed when the next decision is in
// phase next: the same bidding round goes on, or a loan request interrupts it.
func stillSealed(bid, next rules.Phase) bool {
	return next == bid || (bid != rules.PhaseIncentiveBid && loanPhase(next))
}

// closeSealed reveals the sealed bids of every bidding round that has just closed.
func (p *playGame) closeSealed() {
	if len(p.sealed) == 0 {
		return
	}
	next := rules.PhaseTerminal
	if !p.state.IsTerminal() {
		next = p.state.Decision().Phase
	}
	var open, closed []logEntry
	for _, e := range p.sealed {
		if stillSealed(e.phase, next) {
			open = append(open, e)
		} else {
			closed = append(closed, e)
		}
	}
	if len(closed) == 0 {
		return
	}
	bids := make([]string, len(closed))
	for i, e := range closed {
		bids[i] = fmt.Sprintf("%s $%d", p.seatName(e.decider), e.move.Amount)
	}
	fmt.Fprintf(p.out, "Sealed bids revealed (%s): %s\n", closed[0].phase, strings.Join(bids, ", "))
	p.sealed = append(p.sealed[:0], open...)
}

// undo replays the game without the human's last move.
func (p *playGame) undo() error {
	if !canUndo(p.log, p.seat, p.state.Turn) {
		fmt.Fprintln(p.out, "nothing to undo: your last move is not the last thing that happened in this turn")
		return nil
	}
	last := p.log[len(p.log)-1]
	p.log = p.log[:len(p.log)-1]
	if n := len(p.sealed); n > 0 && p.sealed[n-1] == last {
		p.sealed = p.sealed[:n-1]
	}
	s := p.game.NewInitialState()
	for i, e := range p.log {
		if err := s.ApplyMoveChecked(e.move); err != nil {
			return fmt.Errorf("play: replaying move %d for undo: %w", i+1, err)
		}
	}
	p.state = s
	fmt.Fprintf(p.out, "undone: %v\n", last.move)
	p.printBoard()
	return nil
}

// seatName names a seat the way the board does (p1 is seat 0).
func (p *playGame) seatName(s int) string {
	if s == p.seat {
		return fmt.Sprintf("you (p%d)", s+1)
	}
	return fmt.Sprintf("p%d (%s)", s+1, p.names[s])
}

// printBoard shows the human's redacted view.
func (p *playGame) printBoard() {
	p.state.Redact(p.seat, p.view)
	fmt.Fprintln(p.out)
	fmt.Fprintln(p.out, p.view.Render(p.seat))
}

// printMoves lists the legal moves, numbered, with the amounts collapsed into a range.
func (p *playGame) printMoves(d rules.Decision) {
	all := p.state.LegalMoves(nil)
	p.moves = p.moves[:0]
	lo, hi, amounts := 0, 0, 0
	for _, m := range all {
		if m.Kind == rules.Amount {
			if amounts == 0 || int(m.Amount) < lo {
				lo = int(m.Amount)
			}
			if amounts == 0 || int(m.Amount) > hi {
				hi = int(m.Amount)
			}
			amounts++
			continue
		}
		p.moves = append(p.moves, m)
	}
	fmt.Fprintf(p.out, "Your decision (%s):\n", d.Phase)
	for i, m := range p.moves {
		fmt.Fprintf(p.out, "  %2d  %v\n", i+1, m)
	}
	if amounts > 0 {
		fmt.Fprintf(p.out, "  $N  an amount from $%d to $%d", lo, hi)
		if sealedPhase(d.Phase) {
			fmt.Fprint(p.out, " (sealed until every bid is in)")
		}
		fmt.Fprintln(p.out)
	}
}

// printScores prints the final-scoring breakdown of every seat.
func (p *playGame) printScores() {
	p.state.Redact(p.seat, p.view)
	fmt.Fprintln(p.out)
	fmt.Fprintln(p.out, p.view.Render(p.seat))
	fmt.Fprintln(p.out, "\nFinal score:")
	fmt.Fprintf(p.out, "  %-24s %6s %6s %8s %6s %6s %5s\n", "seat", "cash", "island", "leftover", "loans", "total", "rank")
	for s, sc := range p.state.Scores() {
		mark := ""
		if sc.Winner {
			mark = "  winner"
		}
		fmt.Fprintf(p.out, "  %-24s %6d %6d %8d %6d %6d %5d%s\n", p.seatName(s), sc.Cash, sc.Island, sc.Leftover, sc.Loans, sc.Total, sc.Rank, mark)
	}
}
