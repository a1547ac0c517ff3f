package rules

// Input size limits: a reader refuses larger input with one line before decoding it, so a
// corrupt or hostile file cannot make it allocate without bound.
const (
	// MaxPositionBytes bounds a JSON position. A full position with its machine, indented,
	// is about 6 KB; hand-written ones are smaller.
	MaxPositionBytes = 1 << 20
	// MaxRecordBytes bounds a game record (JSON or binary). The longest game at the default
	// turn limit has Game.MaxGameLength() = 1000 x MaxStepsPerTurn (322) + 226 = 322,226
	// decisions, each at most about 40 bytes in a JSON record ("pick:harbor:yellow:$6",
	// quotes, comma, indent): 13 MB. Real games have a few thousand decisions (tens of KB).
	// Reading a record allocates at most about 4 times its size.
	MaxRecordBytes = 32 << 20
)

// MaxPositionCash bounds every amount of cash in a position (a hand, a bid, a Bank cash lot,
// a company pile, a delivery bid, an incentive). Real games stay in the hundreds of dollars;
// the bound keeps amount ranges listable (LegalMoves lists every legal amount) and the
// engine's 32-bit arithmetic far from overflow.
const MaxPositionCash = 1_000_000
