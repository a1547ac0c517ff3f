package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/play"
	"github.com/container-rl/container/env/rules"
	"github.com/spf13/cobra"
)

// ErrPlayInput is wrapped when play's input ends before the game does.
var ErrPlayInput = errors.New("play: input ended before the game did")

// scriptedFallback lists the bots play uses, in order, when "default" (the shipped trained bot)
// is not registered: the strongest scripted bot first.
var scriptedFallback = []string{"valuer", "shipper", "manufacturer", "random"}

type playOptions struct {
	gameFlags
	seat      int
	opponents string
	seed      uint64
}

func newPlayCmd() *cobra.Command {
	o := playOptions{}
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play a game in the terminal against bots",
		Long: `Play a full game of Container in the terminal against bots.

You see the board as your seat may see it (never an opponent's scoring card or an unrevealed
sealed bid), the legal moves numbered with their notation, and after each delivery auction the
revealed bids. Answer with a move's number or its notation. Where the decision is an amount (a
bid), a number is the amount (5 and $5 alike) and a listed move (such as taking a loan) is
chosen as #1, #2, ... or by its notation. Other inputs: "undo" takes back your last move while it is still your decision in the same turn and
no one else has moved since, "board" shows the board again, "help" lists the inputs, "quit"
abandons the game. The game ends with every seat's final-scoring breakdown.

Input is read line by line from stdin, so a game can be scripted.`,
		Example: `  container play
  container play --players 3 --seat 1 --opponents valuer,shipper
  container play --opponents easy,medium,hard
  printf '1\n1\n$3\n' | container play --players 3 --opponents random --turn-limit 5`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPlay(o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	addGameFlags(cmd, &o.gameFlags, gameFlagSet{turnLimit: true})
	f.IntVar(&o.seat, "seat", 0, "your seat, 0 to players-1 (seat 0 is p1 on the board; who starts is drawn at setup)")
	f.StringVar(&o.opponents, "opponents", bots.DefaultName, "opponent bots: one name for all, or players-1 comma-separated names in seat order, skipping yours (see container bots), such as the levels easy, medium, hard and expert; \"default\" is the trained bot where it has a model for the game's options, else the valuer")
	f.Uint64Var(&o.seed, "seed", 1, "setup seed (the game is fully determined by the options, the seed and the moves)")
	_ = cmd.RegisterFlagCompletionFunc("opponents", completeBotList)
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
	opts, err := o.rulesOptions(0)
	if err != nil {
		return opts, nil, fmt.Errorf("play: %w", err)
	}
	opts.Seed = o.seed
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

// playGame is one game in progress in the terminal.
type playGame struct {
	*play.Game
	seat    int
	names   []string // bot name per seat, "" for the human
	out     io.Writer
	moves   []rules.Move  // the numbered moves last listed
	amounts *play.Amounts // the amounts last offered (nil: none)
}

// help lists the inputs of the pending decision.
func (p *playGame) help() string {
	var what string
	switch {
	case p.amounts != nil && len(p.moves) > 0:
		what = fmt.Sprintf("an amount from $%d to $%d (5 or $5 alike), #N or the notation for a listed move", p.amounts.Min, p.amounts.Max)
	case p.amounts != nil:
		what = fmt.Sprintf("an amount from $%d to $%d (5 or $5 alike)", p.amounts.Min, p.amounts.Max)
	default:
		what = "a listed move's number or its notation"
	}
	return "inputs: " + what + `; "undo" takes back your last move, "board" shows the board, "quit" abandons the game`
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
	players := make([]bots.Bot, len(names))
	for s, n := range names {
		if n == "" {
			continue
		}
		if players[s], err = bots.New(n, opts, opts.Seed+uint64(s)+1); err != nil {
			return fmt.Errorf("play: %w", err)
		}
		if bots.IsFileName(n) {
			names[s] = filepath.Base(n) // a trained bot's file, without its directory
		} else if t, err := bots.AliasFor(n, opts); err == nil && t != n {
			names[s] = n + ": " + t // a level names the agent it is for these options
		}
	}
	game, err := play.New(g, opts.Seed, o.seat, players)
	if err != nil {
		return err
	}
	p := &playGame{Game: game, seat: o.seat, names: names, out: out}
	fmt.Fprintf(out, "Container, %d players (%s rules, %s game), seed %d. You are p%d (seat %d).\n",
		opts.Players, opts.Variant, opts.Length, opts.Seed, o.seat+1, o.seat)
	for s := range names {
		if s != o.seat {
			fmt.Fprintf(out, "  %s\n", p.seatName(s))
		}
	}
	sc := bufio.NewScanner(in)
	showBoard := true
	for !p.Over() {
		if !p.HumanToMove() {
			if err := p.botMove(); err != nil {
				return err
			}
			showBoard = true
			continue
		}
		d := p.State().Decision()
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
		done, err := p.human(strings.TrimSpace(sc.Text()))
		if err != nil {
			return err
		}
		if done {
			fmt.Fprintln(out, "Game abandoned.")
			return nil
		}
	}
	p.printScores()
	return nil
}

// botMove lets the deciding bot act on its own redacted view.
func (p *playGame) botMove() error {
	ev, err := p.BotMove()
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	p.show(ev)
	return nil
}

// human handles one input line; done is true when the player quits.
func (p *playGame) human(line string) (done bool, err error) {
	switch strings.ToLower(line) {
	case "":
		return false, nil
	case "q", "quit", "exit":
		return true, nil
	case "h", "help", "?":
		fmt.Fprintln(p.out, p.help())
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
	ev, err := p.Play(m)
	if err != nil {
		fmt.Fprintf(p.out, "%s is not a legal move now; %s\n", rules.Quote(line), play.InputHint(p.moves, p.amounts))
		return false, nil
	}
	p.show(ev)
	return false, nil
}

// parse reads what the human typed (play.ParseInput: at an amount decision a bare number is
// the amount and listed moves are #N; elsewhere a number is a listed move).
func (p *playGame) parse(line string) (rules.Move, error) {
	return play.ParseInput(p.View(), line, p.moves, p.amounts)
}

// show tells the human what a move just applied did, keeping other seats' sealed bids sealed
// until their round closes.
func (p *playGame) show(ev play.Event) {
	w := play.Words{Viewer: p.seat}
	switch {
	case ev.Decider == p.seat:
	case ev.SealedBid():
		fmt.Fprintf(p.out, "%s placed a sealed bid (%s)\n", p.seatName(ev.Decider), strings.ToLower(w.SealedMove(ev.Context)))
	default:
		fmt.Fprintf(p.out, "%s: %s  [%v]\n", p.seatName(ev.Decider), w.Move(ev.Context, ev.Move), ev.Move)
	}
	if len(ev.Revealed) == 0 {
		return
	}
	bids := make([]string, len(ev.Revealed))
	for i, e := range ev.Revealed {
		bids[i] = fmt.Sprintf("%s $%d", p.seatName(e.Decider), e.Move.Amount)
	}
	fmt.Fprintf(p.out, "Sealed bids revealed (%s): %s\n", ev.Revealed[0].Phase, strings.Join(bids, ", "))
}

// undo takes back the human's last move.
func (p *playGame) undo() error {
	if !p.CanUndo() {
		fmt.Fprintln(p.out, "nothing to undo: your last move is not the last thing that happened in this turn")
		return nil
	}
	last, err := p.Undo()
	if err != nil {
		return err
	}
	fmt.Fprintf(p.out, "undone: %v\n", last.Move)
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
	fmt.Fprintln(p.out)
	fmt.Fprintln(p.out, p.View().Render(p.seat))
}

// printMoves lists the legal moves, numbered, with the amounts collapsed into a range.
func (p *playGame) printMoves(d rules.Decision) {
	p.moves, p.amounts = p.Choices()
	amounts := p.amounts
	// The words come from the seat's own view of the decision (no sealed values in it).
	c := play.ContextAt(p.View())
	w := play.Words{Viewer: p.seat}
	fmt.Fprintf(p.out, "Your decision (%s): %s\n", d.Phase, w.Ask(c))
	width := 0
	for _, m := range p.moves {
		width = max(width, len(m.String()))
	}
	// At an amount decision the amounts come first: a bare number is one (5 or $5), and the
	// listed moves are #1, #2, ...
	if amounts != nil {
		fmt.Fprintf(p.out, "  %3s  an amount from $%d to $%d: type it as 5 or $5", "N", amounts.Min, amounts.Max)
		if amounts.Sealed {
			fmt.Fprint(p.out, " (sealed until every bid is in)")
		}
		fmt.Fprintln(p.out)
	}
	for i, m := range p.moves {
		fmt.Fprintf(p.out, "  %3s  %-*s  %s\n", play.MoveLabel(i, amounts), width, m.String(), w.Move(c, m))
	}
}

// printScores prints the final-scoring breakdown of every seat.
func (p *playGame) printScores() {
	p.printBoard()
	fmt.Fprintln(p.out, "\nFinal score:")
	fmt.Fprintf(p.out, "  %-24s %6s %6s %8s %6s %6s %5s\n", "seat", "cash", "island", "leftover", "loans", "total", "rank")
	for s, sc := range p.State().Scores() {
		mark := ""
		if sc.Winner {
			mark = "  winner"
		}
		fmt.Fprintf(p.out, "  %-24s %6d %6d %8d %6d %6d %5d%s\n", p.seatName(s), sc.Cash, sc.Island, sc.Leftover, sc.Loans, sc.Total, sc.Rank, mark)
	}
}
