package datasets

import "github.com/apache/arrow-go/v18/arrow"

// Column names of the steps table, in schema order.
const (
	ColGameID     = "game_id"
	ColStep       = "step"
	ColTurn       = "turn"
	ColDecider    = "decider"
	ColPhase      = "phase"
	ColObs        = "obs"
	ColLegalMask  = "legal_mask"
	ColAction     = "action"
	ColActionText = "action_text"
	ColReward     = "reward"
	ColDone       = "done"
	ColReturns    = "returns"
	ColPolicy     = "policy"
	ColValue      = "value"
)

// Column names of the games table, in schema order (game_id is shared with the steps table).
const (
	ColSeed           = "seed"
	ColOptions        = "options"
	ColAgents         = "agents"
	ColFinalCash      = "final_cash"
	ColFinalScore     = "final_score"
	ColScoreBreakdown = "score_breakdown"
	ColWinners        = "winners"
	ColLength         = "length"
	ColTurns          = "turns"
	ColEndReason      = "end_reason"
	ColDurationUS     = "duration_us"
)

// scoreType is the struct of one seat's final-scoring breakdown.
var scoreType = arrow.StructOf(
	arrow.Field{Name: "cash", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "island", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "leftover", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "loans", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "total", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "discarded", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "discarded_count", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "gold_as", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "all_colours", Type: arrow.FixedWidthTypes.Boolean},
	arrow.Field{Name: "factory_containers", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "rank", Type: arrow.PrimitiveTypes.Int8},
	arrow.Field{Name: "winner", Type: arrow.FixedWidthTypes.Boolean},
)

// PhaseType is the type of the steps table's phase column: the phase name, dictionary-encoded
// with uint8 indices (layout version 1 stored the bare uint8 index into Meta.PhaseNames).
var PhaseType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.String}

func phaseType(version int) arrow.DataType {
	if version == 1 {
		return arrow.PrimitiveTypes.Uint8
	}
	return PhaseType
}

// StepsSchema is the schema of the steps table for m (one row per decision).
func StepsSchema(m *Meta) *arrow.Schema {
	fields := []arrow.Field{
		{Name: ColGameID, Type: arrow.PrimitiveTypes.Uint64},
		{Name: ColStep, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColTurn, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColDecider, Type: arrow.PrimitiveTypes.Int8},
		{Name: ColPhase, Type: phaseType(m.FormatVersion)},
		{Name: ColObs, Type: arrow.FixedSizeListOfNonNullable(int32(m.ObsDim), arrow.PrimitiveTypes.Float32)},
		{Name: ColLegalMask, Type: &arrow.FixedSizeBinaryType{ByteWidth: m.MaskBytes()}},
		{Name: ColAction, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColActionText, Type: arrow.BinaryTypes.String},
		{Name: ColReward, Type: arrow.PrimitiveTypes.Float32},
		{Name: ColDone, Type: arrow.FixedWidthTypes.Boolean},
		{Name: ColReturns, Type: arrow.FixedSizeListOfNonNullable(int32(m.Seats), arrow.PrimitiveTypes.Float32)},
	}
	if m.Policy {
		fields = append(fields, arrow.Field{Name: ColPolicy, Type: arrow.FixedSizeListOfNonNullable(int32(m.NumActions), arrow.PrimitiveTypes.Float32)})
	}
	if m.Value {
		fields = append(fields, arrow.Field{Name: ColValue, Type: arrow.PrimitiveTypes.Float32})
	}
	md := m.metadata("steps")
	return arrow.NewSchema(fields, &md)
}

// GamesSchema is the schema of the games table for m (one row per game).
func GamesSchema(m *Meta) *arrow.Schema {
	seats := int32(m.Seats)
	fields := []arrow.Field{
		{Name: ColGameID, Type: arrow.PrimitiveTypes.Uint64},
		{Name: ColSeed, Type: arrow.PrimitiveTypes.Uint64},
		{Name: ColOptions, Type: arrow.BinaryTypes.String},
		{Name: ColAgents, Type: arrow.FixedSizeListOfNonNullable(seats, arrow.BinaryTypes.String)},
		{Name: ColFinalCash, Type: arrow.FixedSizeListOfNonNullable(seats, arrow.PrimitiveTypes.Int32)},
		{Name: ColFinalScore, Type: arrow.FixedSizeListOfNonNullable(seats, arrow.PrimitiveTypes.Int32)},
		{Name: ColScoreBreakdown, Type: arrow.FixedSizeListOfNonNullable(seats, scoreType)},
		{Name: ColWinners, Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int8)},
		{Name: ColLength, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColTurns, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColEndReason, Type: arrow.BinaryTypes.String},
		{Name: ColDurationUS, Type: arrow.PrimitiveTypes.Int64},
	}
	md := m.metadata("games")
	return arrow.NewSchema(fields, &md)
}
