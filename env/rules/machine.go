package rules

// decisionMachine is the decision machinery of a State: the active turn's counters, the
// action in progress, the sealed delivery auction, the Bank bid being made, the turn-start
// bookkeeping (interest, default, auctions won) and the cash ledger. Every field is part of
// the position (JSON, Hash). It holds no slices or pointers, so copying a State copies it and
// nothing is allocated while playing.
//
// The machine is private to the engine: code outside the package reads what a decider may
// know through State.Decision (decision.go), never these fields. They are capitalised only
// because they are the position format's "machine" object (docs/POSITION.md; encoding/json
// reads exported fields): renaming a field or its JSON tag changes the format.
//
// Instead of a general stack of frames the machine keeps one continuation per nested
// sub-process, which is all the rules need: a placement returns to its action's rearrange
// loop or to the Bank re-bid (Action), a payment of containers to the Bank returns to the
// turn start or to the game end (PayResume), and the turn start and game end are staged
// loops (Stage) that re-enter where they stopped.
type decisionMachine struct {
	Phase   Phase `json:"phase"`
	Decider int8  `json:"decider"`

	// Counters of the active player's turn.
	ActionsUsed uint8 `json:"actions_used"`
	Produced    bool  `json:"produced"`
	CalledBank  bool  `json:"called_bank"`
	WonAuction  bool  `json:"won_auction"`
	Repays      uint8 `json:"repays"`
	LuxuryUsed  bool  `json:"luxury_used,omitempty"`
	// LoansBlocked: the active player rejected a player loan this turn (no loan of any kind
	// until the turn ends). LoanRejected has a bit per seat for the same (Player Loans).
	LoansBlocked bool  `json:"loans_blocked,omitempty"`
	LoanRejected uint8 `json:"loan_rejected,omitempty"`
	// LoanOffered has a bit per seat that an opponent offered a player loan this turn (Player
	// Loans): that seat may not take a Bank loan until the turn ends.
	LoanOffered uint8 `json:"loan_offered,omitempty"`
	// LuxFirst is 1 + the canonical index of the first container returned by Acquire Luxury
	// (0 before the first pick).
	LuxFirst uint8 `json:"lux_first,omitempty"`

	// The action in progress: the turn-menu kind that started it, the district being
	// arranged, the other seat involved, whether a harbor purchase is the free anchor action.
	Action      MoveKind `json:"action"`
	District    District `json:"district"`
	Counterpart int8     `json:"counterpart"`
	Free        bool     `json:"free,omitempty"`
	// Pending holds containers waiting to be placed (place, return-bid), or the colours
	// chosen so far (produce-colour), or containers bought so far (buy phases, for display).
	Pending Counts `json:"pending"`
	// Bought counts containers bought in this purchase; PickLeft the colours still to choose
	// when producing with short storage.
	Bought   uint8 `json:"bought"`
	PickLeft uint8 `json:"pick_left"`
	// Fixed counts, by lot, containers placed during this action: they may not be picked up
	// again, so each container moves at most once per action.
	Fixed [HarborPrices]Counts `json:"fixed"`

	// A Bank bid in progress: the auction kind, the value to beat (cash, or half-containers
	// for a container bid: a normal container is 2 halves, gold 3), and the containers of an
	// outbid player still to be put back (by district).
	// AmountBase is the amount built so far by AmountHundred in the pending amount decision
	// (0 otherwise): Amount ids count from it.
	AmountBase int32 `json:"amount_base,omitempty"`

	BidKind       AuctionKind `json:"bid_kind"`
	ToBeat        int32       `json:"to_beat"`
	Returner      int8        `json:"returner"`
	ReturnFactory Counts      `json:"return_factory"`
	ReturnHarbor  Counts      `json:"return_harbor"`

	// Turn start and game end.
	Stage   uint8     `json:"stage"`
	Unpaid  uint8     `json:"unpaid"`   // unpaid interest: containers still to seize
	SeizeAt uint8     `json:"seize_at"` // location of the pending seizure choice (seizeIsland..)
	Seized  Counts    `json:"seized"`   // containers seized so far this default
	Ending  EndReason `json:"ending"`   // why the game ends once open auctions are resolved

	// Paying containers to the Bank container lots: what is left to pay, who picks the
	// colours, how many units were placed (the next lot follows), where to resume.
	Pay       Counts `json:"pay"`
	Payer     int8   `json:"payer"`
	PayPlaced uint8  `json:"pay_placed"`
	PayResume uint8  `json:"pay_resume"`

	// The delivery auction (sealed bids). Bids and Runoff stay in the machine, not in the
	// bidders' hands, until the auction resolves; Redact hides other seats' unrevealed values.
	Bids           [MaxPlayers]int32 `json:"bids"`
	Runoff         [MaxPlayers]int32 `json:"runoff"`
	HasBid         uint8             `json:"has_bid"` // bit per seat: bid placed
	Tied           uint8             `json:"tied"`    // bit per seat: in the runoff
	HasRunoff      uint8             `json:"has_runoff"`
	Revealed       bool              `json:"revealed"` // first-round bids are public
	RunoffRevealed bool              `json:"runoff_revealed"`
	Winner         int8              `json:"winner"`
	// Hidden is set in a redacted view in which other seats' unrevealed bids read 0.
	Hidden bool `json:"hidden,omitempty"`

	// Interest at the turn start: loans due (those held when the turn began), and a bit per
	// loan slot left unpaid.
	InterestDue uint8 `json:"interest_due,omitempty"`
	UnpaidLoans uint8 `json:"unpaid_loans,omitempty"`

	// A loan request (Player Loans): the borrower, where to resume, the decision to return to,
	// the seats that offered, the seat being asked, sealed incentive bids, ties, the winner.
	Borrower          int8              `json:"borrower"`
	LoanResume        uint8             `json:"loan_resume,omitempty"`
	LoanReturnPhase   Phase             `json:"loan_return_phase,omitempty"`
	LoanReturnDecider int8              `json:"loan_return_decider,omitempty"`
	Offers            uint8             `json:"offers,omitempty"`
	Incentives        [MaxPlayers]int32 `json:"incentives"`
	HasIncentive      uint8             `json:"has_incentive,omitempty"`
	IncentiveRevealed bool              `json:"incentive_revealed,omitempty"`
	LoanTied          uint8             `json:"loan_tied,omitempty"`
	Lender            int8              `json:"lender"`

	// Cash ledger: every dollar that entered play from the supply or left play to it.
	FromSupply int64 `json:"from_supply"`
	ToSupply   int64 `json:"to_supply"`
}

// Turn-start stages (machine.Stage).
const (
	stageInterest    uint8 = iota // a loan forced by interest is requested
	stageInterestPay              // interest paid (PhaseInterestChoice when it matters)
	stageLenders                  // unpaid player loans: each lender seizes or forgives
	stageSeize                    // unpaid Bank loans: containers seized
	stageWin                      // auctions won
	stageMenu
)

// Where a payment of containers to the Bank resumes (machine.PayResume).
const (
	resumeTurnStart uint8 = iota
	resumeGameEnd
)

// Seizure locations in the default order (machine.SeizeAt): the public SeizeLocation
// values (decision.go), as the machine stores them.
const (
	seizeIsland   = uint8(SeizeIsland)
	seizeShip     = uint8(SeizeShip)
	seizeHolding  = uint8(SeizeHolding)
	seizeHarbor   = uint8(SeizeHarbor)
	seizeFactory  = uint8(SeizeFactory)
	seizeNothing  = uint8(SeizeNothing)
	seizeAnywhere = uint8(SeizeAnywhere)
)

// Where a loan request resumes (machine.LoanResume).
const (
	resumeDecision uint8 = iota // the decision during which the loan was requested
	resumeInterest              // the turn start's interest payment
)

// CashFlow is the cash ledger: the cash that entered play from the supply and left play to
// it. Cash in play (hands, bid tiles, Bank cash lots, company piles) always equals the
// starting cash plus FromSupply minus ToSupply.
type CashFlow struct {
	Start      int64
	FromSupply int64
	ToSupply   int64
	InPlay     int64
}

// CashFlow returns the cash ledger of the position.
func (s *State) CashFlow() CashFlow {
	n := s.game.opts.Players
	start := int64(StartCash * n)
	if s.game.opts.Variant != Classic {
		start += 1 + 2 + 3
	}
	var in int64
	for i := 0; i < n; i++ {
		in += int64(s.Players[i].Cash)
		in += int64(s.Companies[i].Pile)
	}
	for k := range s.Auctions {
		in += int64(s.Auctions[k].Cash)
	}
	for _, c := range s.Bank.CashLots {
		in += int64(c)
	}
	return CashFlow{Start: start, FromSupply: s.machine.FromSupply, ToSupply: s.machine.ToSupply, InPlay: in}
}
