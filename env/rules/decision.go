package rules

// The pending decision, as every player may know it: the only door from outside the package
// into the decision machinery (machine.go), as OpenSpiel's State API is for a game's
// internals. Bots, the observation encoder, search, the CLI, the web UI and the C API read
// the machine through Decision; SetSealed is the one way in, for search determinizations and
// leak tests.

// Decision is the public description of the pending decision and of the machine around it:
// what the observation encodes and what a bot may use. Every field is known to every player,
// except the sealed values in Delivery and Loan, which a redacted view (State.Redact) and
// DecisionFor hold only for the viewing seat until they are revealed, and the amount fields,
// which there are the decider's own only for the decider (another seat sees no amount in
// progress and limits worked out from the sealed values it has seen). Seats are absolute (0-based); a seat
// field reads -1 when no seat is involved; a bit set is one bit per seat.
type Decision struct {
	Phase    Phase
	Decider  int      // seat that decides now (-1 once the game is over)
	Active   int      // seat whose turn it is
	District District // district being placed into / picked from, where it applies
	// Counterpart is the other seat involved: the seller (buy-factory), harbor owner
	// (buy-harbor), deliverer (bids), defaulter (seize), borrower (loan phases), -1 if none.
	Counterpart int
	Pending     Counts // containers waiting to be placed (place, return-bid) or bought so far
	MinAmount   int    // smallest legal Amount (amount phases)
	MaxAmount   int    // largest legal Amount, uncapped (amount phases)
	AmountBase  int    // amount built so far with AmountHundred; Amount ids count from it
	ToBeat      int    // value a Bank bid must beat, in cash or half-containers (gold = 3 halves)
	Free        bool   // harbor purchase taken as an anchor action (zero containers allowed)

	Turn     TurnCounters     // the active player's turn so far
	Action   ActionInProgress // the turn-menu action in progress (or the last one)
	BankBid  BankBid          // the Bank bid being made
	Default  Seizure          // a default in progress (unpaid interest)
	Payment  BankPayment      // containers being paid to the Bank container lots
	Delivery DeliveryAuction  // the delivery auction (sealed bids)
	Interest InterestDue      // interest at this turn's start
	Loan     LoanRequest      // a player-loan request (Player Loans)
}

// TurnCounters are the active player's turn counters.
type TurnCounters struct {
	ActionsUsed uint8 // turn-menu actions taken (two per turn)
	Produced    bool  // Produce used
	CalledBank  bool  // Call Bank used
	WonAuction  bool  // won a Bank auction at this turn's start (no Call Bank)
	Repays      uint8 // loans repaid
	LuxuryUsed  bool  // Acquire Luxury used (Luxury Containers)
	// LoansBlocked: the active player rejected a player loan (no loan of any kind until the
	// turn ends; Player Loans).
	LoansBlocked bool
}

// ActionInProgress is the turn-menu action in progress (Decision.District, Counterpart,
// Pending and Free say more about it).
type ActionInProgress struct {
	Kind MoveKind // the turn-menu kind that started it (or the last one)
	// Fixed counts, by lot index (factory $1..$4 or harbor $2..$6), containers placed during
	// this action: they may not be picked up again.
	Fixed [HarborPrices]Counts
	// Pending holds the containers waiting to be placed, the colours chosen so far when
	// producing, or the containers bought so far in a purchase (Decision.Pending is the same
	// except while paying the Bank, when it shows the containers still to pay).
	Pending  Counts
	Bought   uint8 // containers bought in this purchase
	PickLeft uint8 // colours still to choose when producing with short storage
}

// BankBid is a Bank bid in progress (Decision.ToBeat is the value to beat).
type BankBid struct {
	Kind AuctionKind // the auction bid on
	// Returner is the outbid seat still putting containers back (-1 if none), and
	// ReturnFactory, ReturnHarbor the containers it still puts back, by district.
	Returner      int8
	ReturnFactory Counts
	ReturnHarbor  Counts
}

// SeizeLocation is where a seizure takes a container, in the default order (rulebook
// "Defaulting"): the island first, then the ship, and so on.
type SeizeLocation uint8

const (
	SeizeIsland SeizeLocation = iota
	SeizeShip
	SeizeHolding
	SeizeHarbor
	SeizeFactory
	SeizeNothing  // nothing left to seize
	SeizeAnywhere // Player Loans: a lender takes any container (not on a bid tile)
	NumSeizeLocations
)

var seizeLocationNames = [NumSeizeLocations]string{"island", "ship", "holding", "harbor", "factory", "nothing", "anywhere"}

func (l SeizeLocation) String() string {
	if l < NumSeizeLocations {
		return seizeLocationNames[l]
	}
	return "seize(?)"
}

// Seizure is a default in progress: unpaid interest paid in containers.
type Seizure struct {
	Unpaid uint8         // containers still to seize
	At     SeizeLocation // location of the pending seizure choice
	Seized Counts        // containers seized so far in this default
}

// BankPayment is a payment of containers to the Bank container lots.
type BankPayment struct {
	Left   Counts // containers still to pay
	Payer  int8   // seat choosing the colours paid
	Placed uint8  // units paid so far (sets the next lot)
}

// DeliveryAuction is the sealed delivery auction. Bids and Runoff are the first-round bids
// and runoff additions by seat; in a redacted view another seat's value reads 0 until it is
// revealed.
type DeliveryAuction struct {
	Bids           [MaxPlayers]int32
	Runoff         [MaxPlayers]int32
	HasBid         uint8 // bit per seat: bid placed
	Tied           uint8 // bit per seat: in the runoff
	HasRunoff      uint8 // bit per seat: runoff addition placed
	Revealed       bool  // first-round bids are public
	RunoffRevealed bool  // runoff additions are public
	Winner         int8  // winning bidder once decided (-1 before)
}

// InterestDue is the interest at this turn's start.
type InterestDue struct {
	Loans  uint8 // loans due interest (those held when the turn began)
	Unpaid uint8 // bit per loan slot left unpaid
}

// LoanRequest is a player-loan request (Player Loans). Incentives are the sealed incentive
// bids by seat; in a redacted view another seat's reads 0 until they are revealed.
type LoanRequest struct {
	Borrower          int8  // seat asking (-1 if none)
	Offers            uint8 // bit per seat: offered a loan
	Incentives        [MaxPlayers]int32
	HasIncentive      uint8 // bit per seat: incentive bid placed
	IncentiveRevealed bool
	Tied              uint8 // bit per seat: lenders tied on the best incentive
	Lender            int8  // chosen lender (-1 before)
	Rejected          uint8 // bit per seat: rejected a player loan this turn
	Offered           uint8 // bit per seat: offered a player loan this turn (no Bank loan until it ends)
	// ReturnPhase is the decision the request interrupted, resumed once it is settled.
	ReturnPhase Phase
}

// CurrentPlayer is the seat that decides now, or -1 when the game is over.
func (s *State) CurrentPlayer() int {
	if s.Ended != NotEnded {
		return -1
	}
	return int(s.machine.Decider)
}

// Phase is the kind of the pending decision (Decision().Phase without building the rest).
func (s *State) Phase() Phase { return s.machine.Phase }

// Decision describes the pending decision.
func (s *State) Decision() Decision {
	var d Decision
	s.fillDecision(&d)
	return d
}

// fillDecision writes the pending decision into d, every field (so d may be reused).
func (s *State) fillDecision(d *Decision) {
	m := &s.machine
	d.Phase = m.Phase
	d.Decider = s.CurrentPlayer()
	d.Active = int(s.Active)
	d.District = m.District
	d.Counterpart = -1
	d.Pending = m.Pending
	d.MinAmount = 0
	d.MaxAmount = 0
	d.AmountBase = 0
	d.ToBeat = 0
	d.Free = m.Free
	// One assignment per field: tuple assignments and composite literals of arrays go
	// through temporaries, which made this copy several times slower.
	t := &d.Turn
	t.ActionsUsed = m.ActionsUsed
	t.Produced = m.Produced
	t.CalledBank = m.CalledBank
	t.WonAuction = m.WonAuction
	t.Repays = m.Repays
	t.LuxuryUsed = m.LuxuryUsed
	t.LoansBlocked = m.LoansBlocked
	a := &d.Action
	a.Kind = m.Action
	a.Fixed = m.Fixed
	a.Pending = m.Pending
	a.Bought = m.Bought
	a.PickLeft = m.PickLeft
	bb := &d.BankBid
	bb.Kind = m.BidKind
	bb.Returner = m.Returner
	bb.ReturnFactory = m.ReturnFactory
	bb.ReturnHarbor = m.ReturnHarbor
	df := &d.Default
	df.Unpaid = m.Unpaid
	df.At = SeizeLocation(m.SeizeAt)
	df.Seized = m.Seized
	p := &d.Payment
	p.Left = m.Pay
	p.Payer = m.Payer
	p.Placed = m.PayPlaced
	da := &d.Delivery
	da.Bids = m.Bids
	da.Runoff = m.Runoff
	da.HasBid = m.HasBid
	da.Tied = m.Tied
	da.HasRunoff = m.HasRunoff
	da.Revealed = m.Revealed
	da.RunoffRevealed = m.RunoffRevealed
	da.Winner = m.Winner
	d.Interest.Loans = m.InterestDue
	d.Interest.Unpaid = m.UnpaidLoans
	l := &d.Loan
	l.Borrower = m.Borrower
	l.Offers = m.Offers
	l.Incentives = m.Incentives
	l.HasIncentive = m.HasIncentive
	l.IncentiveRevealed = m.IncentiveRevealed
	l.Tied = m.LoanTied
	l.Lender = m.Lender
	l.Rejected = m.LoanRejected
	l.Offered = m.LoanOffered
	l.ReturnPhase = m.LoanReturnPhase
	switch m.Phase {
	case PhaseBuyFactory, PhaseBuyHarbor, PhaseSeize, PhaseDeliveryAccept:
		d.Counterpart = int(m.Counterpart)
	case PhaseDeliveryBid, PhaseRunoffBid, PhaseDeliveryTie:
		d.Counterpart = int(s.Active)
	case PhaseReturnBid:
		d.Counterpart = int(s.Active) // the seat that outbid the decider
	case PhaseBankCashBid, PhaseBankContainerBid:
		d.ToBeat = int(m.ToBeat)
	case PhaseBankPayColour:
		d.Pending = m.Pay
	case PhaseLoanOffer, PhaseIncentiveBid, PhaseLoanTie, PhaseLoanAccept:
		d.Counterpart = int(m.Borrower)
	case PhaseLenderChoice:
		d.Counterpart = int(m.Counterpart)
	}
	if m.Phase == PhaseSeize {
		d.District = seizeDistrict(m.SeizeAt)
	}
	if lo, hi, ok := s.amountRange(); ok {
		d.MinAmount, d.MaxAmount = int(lo), int(hi)
		d.AmountBase = int(m.AmountBase)
	}
}

// Sealed is one seat's sealed values: its first-round delivery bid, its runoff addition and
// its loan incentive bid.
type Sealed struct {
	Bid, Runoff, Incentive int32
}

// SetSealed overwrites seat's sealed values (Decision.Delivery.Bids and Runoff,
// Decision.Loan.Incentives) and marks the state as a full position again (not a redacted
// view). A search fills in the values a redacted view hid (a determinization); a test changes
// them to prove that no view leaks them. It checks nothing: the values must be ones the seat
// could have bid for the state to be a position (State.Validate says).
func (s *State) SetSealed(seat int, v Sealed) {
	if seat < 0 || seat >= MaxPlayers {
		return
	}
	m := &s.machine
	m.Bids[seat], m.Runoff[seat], m.Incentives[seat] = v.Bid, v.Runoff, v.Incentive
	m.Hidden = false
}
