package rules

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"unicode"
)

// Game records: options + seed + the moves determine a game completely, so a record stores
// exactly that, plus a checksum (State.Hash of the final position) that catches a record
// replayed by a different rules version.
//
// JSON form:
//
//	{"format": "container-game/1", "options": {...}, "seed": 7,
//	 "agents": ["default", "valuer", "valuer", "valuer"],
//	 "moves": ["produce", "place w $2", ...], "checksum": "1a2b3c4d5e6f7081"}
//
// "agents" is optional (records written before it existed have none, and load as before):
// who played each seat, for the reader.
//
// A record may instead start from a position (docs/POSITION.md): "position": {...} replaces
// "options" and "seed". The checksum may be left out (nothing is verified then); when given,
// it is checked.
//
// Binary form (MarshalBinary): magic "CTNR", version byte, options, seed, move count, then
// per move uvarint(id+1), or 0 followed by the move's fields for a move without an id (an
// amount above MaxAmountID), then the checksum and a CRC-32 of everything before it.

// RecordFormat is the value of a JSON record's "format" field.
const RecordFormat = "container-game/1"

// ErrBadRecord is wrapped by every error reading, replaying or verifying a record returns.
var ErrBadRecord = errors.New("rules: bad record")

// Record is a complete game: what is needed to replay it and the checksum to verify.
type Record struct {
	Options  Options // Options.Seed is ignored: Seed is the setup seed
	Seed     uint64
	Moves    []Move
	Checksum uint64 // State.Hash of the position after the last move
	// From is the position the moves start from; nil means the seeded setup.
	From *State
	// NoChecksum: the record carries no checksum, so Verify and LoadRecord check nothing.
	NoChecksum bool
	// Agents optionally names who played each seat (one name a seat, seat 0 first), for
	// the reader: replaying ignores it. Only the JSON form carries it.
	Agents []string
}

// MaxRecordAgentBytes bounds an agent name in a record.
const MaxRecordAgentBytes = 256

// checkAgents refuses a list of agent names that does not name every seat once, or holds an
// empty, overlong or non-printable name.
func checkAgents(agents []string, players int) error {
	if len(agents) != players {
		return fmt.Errorf("%w: %d agents for %d seats", ErrBadRecord, len(agents), players)
	}
	for i, a := range agents {
		if a == "" || len(a) > MaxRecordAgentBytes || strings.IndexFunc(a, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			return fmt.Errorf("%w: agent of seat %d is %s: want 1 to %d printable bytes", ErrBadRecord, i, Quote(a), MaxRecordAgentBytes)
		}
	}
	return nil
}

// NewRecordFrom records the moves applied to s since the position from, which s was cloned
// from (a loaded position has an empty history, so s.History() holds exactly those moves).
func NewRecordFrom(from, s *State) *Record {
	h := s.History()[len(from.History()):]
	r := &Record{Options: s.Game().Options(), Moves: make([]Move, len(h)), Checksum: s.Hash(), From: from.Clone()}
	copy(r.Moves, h)
	return r
}

// start returns the state the record's moves apply to.
func (r *Record) start() (*State, error) {
	if r.From != nil {
		return r.From.Clone(), nil
	}
	o := r.Options
	o.Seed = r.Seed
	g, err := NewGame(o)
	if err != nil {
		return nil, fmt.Errorf("%w: options: %w", ErrBadRecord, err)
	}
	return g.NewInitialStateSeed(r.Seed), nil
}

// NewRecord records the game that led to s: its options, the setup seed it was started from
// (g.NewInitialStateSeed(seed)), its history and its hash.
func NewRecord(s *State, seed uint64) *Record {
	h := s.History()
	r := &Record{Options: s.Game().Options(), Seed: seed, Moves: make([]Move, len(h)), Checksum: s.Hash()}
	copy(r.Moves, h)
	r.Options.Seed = seed
	return r
}

// Replay plays the record from setup, calling step (when not nil) before each move with the
// position it applies to (step must not modify it), and returns the final position. An
// illegal move is an error naming its index; the checksum is not verified (see Verify).
func (r *Record) Replay(step func(i int, s *State, m Move)) (*State, error) {
	s, err := r.start()
	if err != nil {
		return nil, err
	}
	for i, m := range r.Moves {
		if s.IsTerminal() {
			return nil, fmt.Errorf("%w: move %d (%s): the game is already over", ErrBadRecord, i, m)
		}
		if step != nil {
			step(i, s, m)
		}
		if err := s.ApplyMoveChecked(m); err != nil {
			return nil, fmt.Errorf("%w: move %d (%s): %w", ErrBadRecord, i, m, err)
		}
	}
	return s, nil
}

// Verify replays the record and checks the checksum; it returns the final position.
func (r *Record) Verify() (*State, error) {
	s, err := r.Replay(nil)
	if err != nil {
		return nil, err
	}
	if h := s.Hash(); !r.NoChecksum && h != r.Checksum {
		return nil, fmt.Errorf("%w: checksum %016x does not match the replayed position's %016x (after %d moves)", ErrBadRecord, r.Checksum, h, len(r.Moves))
	}
	return s, nil
}

// MarshalRecord writes the record as JSON, the moves in the text notation (Move.String).
func (r *Record) MarshalRecord() ([]byte, error) {
	o := r.Options
	o.Seed = 0
	moves := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		moves[i] = m.String()
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	head, err := json.Marshal(RecordFormat)
	if err != nil {
		return nil, err
	}
	if r.From != nil {
		pos, err := r.From.MarshalPosition()
		if err != nil {
			return nil, err
		}
		var c bytes.Buffer
		if err := json.Compact(&c, pos); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "  \"format\": %s,\n  \"position\": %s,\n  \"moves\": [", head, c.Bytes())
	} else {
		opts, err := json.Marshal(optionsToJSON(o))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "  \"format\": %s,\n  \"options\": %s,\n  \"seed\": %d,\n  \"moves\": [", head, opts, r.Seed)
	}
	if len(r.Agents) > 0 {
		// Written before the moves, and only when known, so a record without agents is
		// byte for byte what earlier builds wrote.
		if err := checkAgents(r.Agents, r.Options.Players); err != nil {
			return nil, err
		}
		names, err := json.Marshal(r.Agents)
		if err != nil {
			return nil, err
		}
		at := bytes.LastIndex(b.Bytes(), []byte("  \"moves\": ["))
		tail := append([]byte(nil), b.Bytes()[at:]...)
		b.Truncate(at)
		fmt.Fprintf(&b, "  \"agents\": %s,\n", names)
		b.Write(tail)
	}
	j := struct{ Moves []string }{moves}
	for i, m := range j.Moves {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		q, _ := json.Marshal(m)
		b.Write(q)
	}
	if len(j.Moves) > 0 {
		b.WriteString("\n  ")
	}
	if r.NoChecksum {
		b.WriteString("]\n}\n")
	} else {
		fmt.Fprintf(&b, "],\n  \"checksum\": \"%016x\"\n}\n", r.Checksum)
	}
	return b.Bytes(), nil
}

var recordMagic = []byte("CTNR")

const recordBinaryVersion = 1

// MarshalBinary writes the compact binary form. It replays the record to turn moves into
// action ids (ids are relative to each move's decider), so an illegal record is an error.
func (r *Record) MarshalBinary() ([]byte, error) {
	if r.From != nil {
		return nil, fmt.Errorf("%w: a record that starts from a position has no binary form (write it as JSON)", ErrBadRecord)
	}
	o := r.Options
	b := make([]byte, 0, 64+2*len(r.Moves))
	b = append(b, recordMagic...)
	b = append(b, recordBinaryVersion, byte(o.Players), byte(o.Length), byte(o.Variant), byte(o.Modules))
	for _, v := range []int{o.ContainersPerColour, o.GoldContainers, o.Warehouses, o.FactoriesPerColour, o.TurnLimit} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	b = binary.AppendUvarint(b, r.Seed)
	b = binary.AppendUvarint(b, uint64(len(r.Moves)))
	final, err := r.Replay(func(i int, s *State, m Move) { b = appendBinaryMove(b, s, m) })
	if err != nil {
		return nil, err
	}
	sum := r.Checksum
	if r.NoChecksum {
		sum = final.Hash() // the binary form always carries one
	}
	b = binary.LittleEndian.AppendUint64(b, sum)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

// UnmarshalBinary reads the binary form, replays it and verifies the checksum.
func (r *Record) UnmarshalBinary(data []byte) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: binary: %s", ErrBadRecord, fmt.Sprintf(format, args...))
	}
	if len(data) > MaxRecordBytes {
		return bad("%d bytes; a record is at most %d", len(data), MaxRecordBytes)
	}
	if !bytes.HasPrefix(data, recordMagic) {
		return bad("not a Container game record (magic)")
	}
	if len(data) < len(recordMagic)+5+8+4 {
		return bad("truncated: %d bytes", len(data))
	}
	body, tail := data[:len(data)-4], data[len(data)-4:]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(tail) {
		return bad("CRC mismatch: the record is corrupt")
	}
	p := body[len(recordMagic):]
	if p[0] != recordBinaryVersion {
		return bad("version %d (want %d)", p[0], recordBinaryVersion)
	}
	o := Options{Players: int(p[1]), Length: Length(p[2]), Variant: Variant(p[3]), Modules: Modules(p[4])}
	p = p[5:]
	next := func() (uint64, error) {
		v, n := binary.Uvarint(p)
		if n <= 0 {
			return 0, bad("truncated")
		}
		p = p[n:]
		return v, nil
	}
	for _, f := range []*int{&o.ContainersPerColour, &o.GoldContainers, &o.Warehouses, &o.FactoriesPerColour, &o.TurnLimit} {
		v, err := next()
		if err != nil {
			return err
		}
		if v > 1<<20 {
			return bad("option value %d out of range", v)
		}
		*f = int(v)
	}
	seed, err := next()
	if err != nil {
		return err
	}
	count, err := next()
	if err != nil {
		return err
	}
	if count > uint64(len(p)) {
		return bad("%d moves cannot fit in %d bytes", count, len(p))
	}
	o.Seed = seed
	g, err := NewGame(o)
	if err != nil {
		return fmt.Errorf("%w: options: %w", ErrBadRecord, err)
	}
	if count > uint64(g.MaxGameLength()) {
		return bad("%d moves; a game of these options has at most %d decisions", count, g.MaxGameLength())
	}
	s := g.NewInitialStateSeed(seed)
	moves := make([]Move, 0, count)
	for i := uint64(0); i < count; i++ {
		if s.IsTerminal() {
			return bad("move %d: the game is already over", i)
		}
		m, rest, err := readBinaryMove(p, s)
		if err != nil {
			return fmt.Errorf("%w: binary: move %d: %w", ErrBadRecord, i, err)
		}
		p = rest
		if err := s.ApplyMoveChecked(m); err != nil {
			return fmt.Errorf("%w: move %d (%s): %w", ErrBadRecord, i, m, err)
		}
		moves = append(moves, m)
	}
	if len(p) != 8 {
		return bad("%d bytes left after the moves (want the 8-byte checksum)", len(p))
	}
	sum := binary.LittleEndian.Uint64(p)
	if h := s.Hash(); h != sum {
		return fmt.Errorf("%w: checksum %016x does not match the replayed position's %016x", ErrBadRecord, sum, h)
	}
	*r = Record{Options: g.Options(), Seed: seed, Moves: moves, Checksum: sum}
	return nil
}

// appendBinaryMove appends m, a move of position s: uvarint(id+1), or 0 and the move's
// fields (kind, colour, price, seat, index, varint amount) when it has no action id.
func appendBinaryMove(b []byte, s *State, m Move) []byte {
	if id, ok := s.MoveToAction(m); ok {
		return binary.AppendUvarint(b, uint64(id)+1)
	}
	b = append(b, 0, byte(m.Kind), byte(m.Colour), m.Price, byte(m.Seat), m.Index)
	return binary.AppendVarint(b, int64(m.Amount))
}

// readBinaryMove reads one move written by appendBinaryMove for position s and returns the
// rest of p.
func readBinaryMove(p []byte, s *State) (Move, []byte, error) {
	v, n := binary.Uvarint(p)
	if n <= 0 {
		return Move{}, nil, errors.New("truncated")
	}
	p = p[n:]
	if v > 0 {
		if v-1 >= uint64(NumDistinctActions()) {
			return Move{}, nil, fmt.Errorf("action id %d is out of range", v-1)
		}
		return s.ActionToMove(int(v - 1)), p, nil
	}
	if len(p) < 5 {
		return Move{}, nil, errors.New("truncated")
	}
	m := Move{Kind: MoveKind(p[0]), Colour: Colour(p[1]), Price: p[2], Seat: int8(p[3]), Index: p[4]}
	p = p[5:]
	a, n := binary.Varint(p)
	if n <= 0 || a < -1<<31 || a >= 1<<31 {
		return Move{}, nil, errors.New("truncated")
	}
	m.Amount = int32(a)
	return m, p[n:], nil
}
