package rules

// This file declares the shape of a position. The board fields are exported for reading;
// the JSON position format (docs/POSITION.md) is written by its own mirror types
// (position_json.go), and invariants are checked by State.Validate (position_validate.go).
// The decision machinery is private (machine.go) and read through Decision (decision.go).
// Bots, encoders and renderers read a redacted view (State.Redact, redact.go), which hides
// what the viewer may not see.

// Where is the kind of place a ship is.
type Where uint8

const (
	AtOcean Where = iota
	AtIsland
	AtBank
	AtHarbor // Ship.Seat names the harbor's owner
)

// ShipPos is where a ship is.
type ShipPos struct {
	Where Where
	Seat  int8 // owner of the harbor when Where == AtHarbor
}

// District names one half of a player board.
type District uint8

const (
	FactoryDistrict District = iota
	HarborDistrict
)

func (d District) String() string {
	if d == HarborDistrict {
		return "harbor"
	}
	return "factory"
}

// Loan is one outstanding loan. Its JSON tags are the position format's loan objects.
type Loan struct {
	// Lender is the seat of the lending player, or -1 for the Off-Shore Bank.
	Lender int8 `json:"lender"`
	// Amount is what repaying costs: $10, plus the incentive of a player loan.
	Amount int32 `json:"amount"`
}

// Player is one seat's board, hand and pieces.
type Player struct {
	Cash int32 // cash in hand (cash on a Bank bid tile is not in hand)
	Card uint8 // final scoring card 0..4 (secret)

	Factories  uint8 // bit c set: owns a factory of colour c
	Warehouses uint8 // number of warehouses built (1..5)

	FactoryLots [FactoryPrices]Counts // index p: price $p+1
	HarborLots  [HarborPrices]Counts  // index p: price $p+2

	Ship    Counts
	ShipAt  ShipPos
	Holding Counts // holding area on the Off-Shore Bank
	Island  Counts // scoring area on Container Island

	NumLoans uint8
	Loans    [MaxLoans]Loan

	// Modules.
	Trucks    uint8 // trucks placed on owned companies (<= 3)
	LoanCards uint8 // player-loan cards still in hand (Player Loans)
}

// AuctionKind names one of the three kinds of Bank auction.
type AuctionKind uint8

const (
	// ContainerLotAuction: a Bank container lot, bid on with cash on the cash bid tile.
	ContainerLotAuction AuctionKind = iota
	// CashLotAuction: a Bank cash lot, bid on with containers on the container bid tile.
	CashLotAuction
	// TruckAuction: an independent Truck Company (Truck Companies), bid on with cash or containers.
	TruckAuction
	NumAuctionKinds = 3
)

// Auction is one Bank auction in progress.
type Auction struct {
	Active bool
	// Target is the lot index 0..2 (I..III), or the seat whose Truck Company is auctioned.
	Target int8
	Bidder int8
	// Cash is a cash bid on the tile (frozen: not in the bidder's hand).
	Cash int32
	// FromFactory and FromHarbor are a container bid, by the district each container came
	// from; they still count against that district's storage limit (reserve tokens).
	FromFactory Counts
	FromHarbor  Counts
}

// Bank is the Off-Shore Bank board.
type Bank struct {
	ContainerLots [BankLots]Counts
	CashLots      [BankLots]int32
}

// Company is a Truck Company (Truck Companies module): one per seat, transporting to that
// seat's harbor.
type Company struct {
	Owner int8  // -1 while independent
	Pile  int32 // freight fees piled up while independent
}

// EndReason says why a game ended.
type EndReason uint8

const (
	NotEnded      EndReason = iota
	EndTwoColours           // the supply ran out of two colours
	EndTurnLimit            // Options.TurnLimit turns were played
)

// Phase is the kind of decision pending. The observation encodes it, so action ids shared
// between phases (Place, Pick..., Amount, Yes/No, Seat, Done) are never ambiguous.
type Phase uint8

const (
	PhaseTurn             Phase = iota // active player between actions: an action, a free action or EndTurn
	PhaseInterestChoice                // cash short with two loans from different lenders: which to pay
	PhaseProduceColour                 // storage short: pick the colours to produce, one at a time
	PhasePlace                         // place the lowest-coloured pending container at a price
	PhaseRearrange                     // optional repricing: pick up a container not yet moved this action, or Done
	PhaseBuyFactory                    // Factory Purchase: pick containers from the seller's factory lots, Done
	PhaseBuyHarbor                     // Harbor Purchase: pick containers from the harbor, Done
	PhaseLoadBank                      // anchored at the Bank: load holding-area containers, Done
	PhaseDeliveryBid                   // sealed delivery bid (Amount), or TakeLoan first
	PhaseRunoffBid                     // sealed runoff addition (Amount), or TakeLoan first
	PhaseDeliveryTie                   // deliverer picks among bidders still tied (Seat)
	PhaseDeliveryAccept                // deliverer accepts (Yes) or buys out (No), or TakeLoan first
	PhaseBankCashBid                   // cash bid on a Bank auction (Amount)
	PhaseBankContainerBid              // container bid: pick containers from own districts, Done once it beats the bid
	PhaseBankPayColour                 // paying containers to the Bank: colour for the next lot (PickColour)
	PhaseSeize                         // default: the seizer picks which container is taken at a location
	PhaseReturnBid                     // an outbid player puts a returned container back (Place), by district
	PhaseLuxuryPick                    // Acquire Luxury: pick the two containers to return
	PhaseLoanOffer                     // Player Loans: an opponent offers a loan (Yes) or not (No)
	PhaseIncentiveBid                  // Player Loans: sealed incentive bid (Amount)
	PhaseLoanTie                       // Player Loans: borrower picks among tied lenders (Seat)
	PhaseLoanAccept                    // Player Loans: borrower accepts (Yes) or rejects all (No)
	PhaseLenderChoice                  // Player Loans default: lender seizes (Yes) or forgives (No)
	PhaseTerminal                      // the game is over
	NumPhases
)

var phaseNames = [NumPhases]string{
	"turn", "interest-choice", "produce-colour", "place", "rearrange", "buy-factory", "buy-harbor",
	"load-bank", "delivery-bid", "runoff-bid", "delivery-tie", "delivery-accept", "bank-cash-bid",
	"bank-container-bid", "bank-pay-colour", "seize", "return-bid", "luxury-pick", "loan-offer",
	"incentive-bid", "loan-tie", "loan-accept", "lender-choice", "terminal",
}

func (p Phase) String() string {
	if p < NumPhases {
		return phaseNames[p]
	}
	return "phase(?)"
}

// Unknown marks a hidden value in a redacted view (a scoring card, an unrevealed bid's seat data).
const Unknown = 255

// State is one position of a game.
type State struct {
	game *Game

	Players         [MaxPlayers]Player // seats 0..Players-1 are used
	Bank            Bank
	Auctions        [NumAuctionKinds]Auction
	Companies       [MaxPlayers]Company
	Supply          Counts
	Removed         Counts // Classic: seized containers leave the game
	FactorySupply   [NumNormalColours]uint8
	WarehouseSupply uint8

	Active      int8  // seat whose turn it is
	FirstPlayer int8  // seat that took the first turn
	Turn        int32 // turns begun so far, minus one (0 on the first turn)
	Steps       int32 // decisions applied so far
	Presses     int32 // of Steps, the amount:+100 presses (AmountHundred); see PublicSteps

	EndTriggered bool // two colours ran out; the game ends after this turn
	Ended        EndReason

	// machine is the decision machinery: the turn's counters, the action in progress, the
	// delivery auction and loan request in progress (machine.go). Private: a decider reads
	// what it may know through Decision (decision.go).
	machine decisionMachine

	history []Move
}
