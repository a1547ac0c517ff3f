package rules

// MoveKind is the kind of an atomic decision.
type MoveKind uint8

// The move kinds, in action-id order. The comment gives the arguments a Move of that kind
// uses; seats in action ids are relative to the decider (1 = next player clockwise), seats in
// Move values are absolute. Each kind's name, id count, notation and phases are in the kind
// table (kinds.go).
const (
	EndTurn         MoveKind = iota // turn menu: end the turn (also before using both actions)
	Done                            // close a pick/rearrange/load loop
	TakeLoan                        // free action: request a loan
	RepayLoan                       // free action on own turn: repay loan slot Index (0..1)
	BuildFactory                    // Colour
	BuildWarehouse                  //
	Produce                         //
	FactoryPurchase                 // Seat: the seller
	HarborPurchase                  // at an opponent's harbor, as an action
	Reprice                         // Index: District
	SailOcean                       //
	SailIsland                      // starts a delivery auction
	SailBank                        //
	SailHarbor                      // Seat: the harbor's owner
	CallBankStart                   // Index: 0..2 container lot I..III, 3..5 cash lot I..III
	CallBankRaise                   // Index: AuctionKind to outbid on
	TruckStart                      // Seat: the company; Index: 0 cash bid, 1 container bid
	AcquireLuxury                   // Index: District
	Place                           // Price in dollars ($1..$4 factory, $2..$6 harbor)
	PickFactory                     // Colour, Price: a container from a factory lot
	PickHarbor                      // Colour, Price: a container from a harbor lot
	PickShip                        // Colour
	PickHolding                     // Colour
	PickIsland                      // Colour
	PickColour                      // Colour: a colour choice (produce, paying the Bank)
	Amount                          // Amount (ids cover 0..MaxAmountID; a Move takes any legal amount)
	Yes                             //
	No                              //
	ChooseSeat                      // Seat
	PayInterest                     // Index: loan slot to pay when cash is short
	AmountHundred                   // an amount decision: add $100 to the amount and decide again
	NumMoveKinds
)

// MaxAmountID is the largest amount offset that has an Amount id. Amount ids count from the
// amount built so far (machine.AmountBase, raised $100 at a time by AmountHundred), so every
// legal amount has a sequence of ids: $250 is AmountHundred, AmountHundred, then the $50 id.
const MaxAmountID = 99

// Move is one atomic decision. Unused fields are zero.
type Move struct {
	Kind   MoveKind `json:"kind"`
	Colour Colour   `json:"colour,omitempty"`
	Price  uint8    `json:"price,omitempty"`
	Seat   int8     `json:"seat,omitempty"`
	Index  uint8    `json:"index,omitempty"`
	Amount int32    `json:"amount,omitempty"`
}

// ActionLayoutVersion names the action-id layout: the kinds, their order and their sizes.
// It changes whenever an id changes meaning or the number of ids changes; trained networks
// record it. actions-v1 had 240 ids and no AmountHundred.
const ActionLayoutVersion = "actions-v2"
