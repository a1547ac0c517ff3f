package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// recordHeaderJSON is a JSON record with its moves left undecoded: they are parsed one at a
// time, against the move count the options allow, never held as a list of strings.
type recordHeaderJSON struct {
	Format   string          `json:"format"`
	Options  *optionsJSON    `json:"options"`
	Seed     *uint64         `json:"seed"`
	Position json.RawMessage `json:"position"`
	Agents   json.RawMessage `json:"agents"`
	Moves    json.RawMessage `json:"moves"`
	Checksum string          `json:"checksum"`
}

// LoadRecord reads a JSON record, replays it (parsing each move in the position it applies
// to) and verifies the checksum when the record has one; a record may start from a position
// instead of options and a seed. It returns the record and the final position. A record
// above MaxRecordBytes, or with more moves than a game of its options can have
// (Game.MaxGameLength), is refused before its moves are read.
func LoadRecord(data []byte) (*Record, *State, error) {
	if len(data) > MaxRecordBytes {
		return nil, nil, fmt.Errorf("%w: %d bytes; a record is at most %d", ErrBadRecord, len(data), MaxRecordBytes)
	}
	// The format first, so a record of another version says so rather than failing on a
	// field this version does not know.
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err == nil && head.Format != RecordFormat {
		if v, ok := strings.CutPrefix(head.Format, "container-game/"); ok {
			if _, err := strconv.ParseUint(v, 10, 32); err != nil {
				v = Quote(v)
			}
			return nil, nil, fmt.Errorf("%w: unsupported record format %s (this build reads %s)", ErrBadRecord, v, RecordFormat)
		}
		return nil, nil, fmt.Errorf("%w: format %s (want %s)", ErrBadRecord, Quote(head.Format), Quote(RecordFormat))
	}
	var j recordHeaderJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	if j.Format != RecordFormat {
		return nil, nil, fmt.Errorf("%w: format %s (want %s)", ErrBadRecord, Quote(j.Format), Quote(RecordFormat))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("%w: data after the record's JSON object", ErrBadRecord)
	}
	r := &Record{NoChecksum: j.Checksum == ""}
	if !r.NoChecksum {
		sum, err := strconv.ParseUint(j.Checksum, 16, 64)
		if err != nil || len(j.Checksum) != 16 {
			return nil, nil, fmt.Errorf("%w: checksum %s is not 16 hex digits", ErrBadRecord, Quote(j.Checksum))
		}
		r.Checksum = sum
	}
	var s *State
	if len(j.Position) > 0 {
		if j.Options != nil || j.Seed != nil {
			return nil, nil, fmt.Errorf("%w: a record has either \"position\" or \"options\" and \"seed\", not both", ErrBadRecord)
		}
		from, err := LoadPosition(j.Position)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: position: %w", ErrBadRecord, err)
		}
		r.From, r.Options = from, from.Game().Options()
		s = from.Clone()
	} else {
		if j.Options == nil {
			return nil, nil, fmt.Errorf("%w: \"options\" (or \"position\") is required", ErrBadRecord)
		}
		o, err := j.Options.options()
		if err != nil {
			return nil, nil, fmt.Errorf("%w: options: %w", ErrBadRecord, err)
		}
		if j.Seed != nil {
			r.Seed = *j.Seed
		}
		o.Seed = r.Seed
		g, err := NewGame(o)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: options: %w", ErrBadRecord, err)
		}
		r.Options = g.Options()
		s = g.NewInitialStateSeed(r.Seed)
	}
	if len(j.Agents) > 0 {
		agents, err := decodeAgents(j.Agents, r.Options.Players)
		if err != nil {
			return nil, nil, err
		}
		r.Agents = agents
	}
	limit := s.Game().MaxGameLength()
	md := json.NewDecoder(bytes.NewReader(j.Moves))
	if len(bytes.TrimSpace(j.Moves)) > 0 && !bytes.Equal(bytes.TrimSpace(j.Moves), []byte("null")) {
		if tok, err := md.Token(); err != nil || tok != json.Delim('[') {
			return nil, nil, fmt.Errorf("%w: moves must be a list of move strings", ErrBadRecord)
		}
		for i := 0; md.More(); i++ {
			if i >= limit {
				return nil, nil, fmt.Errorf("%w: more than %d moves; a game of these options has at most %d decisions", ErrBadRecord, limit, limit)
			}
			var text string
			if err := md.Decode(&text); err != nil {
				return nil, nil, fmt.Errorf("%w: move %d: %v", ErrBadRecord, i, err)
			}
			if s.IsTerminal() {
				return nil, nil, fmt.Errorf("%w: move %d (%s): the game is already over", ErrBadRecord, i, Quote(text))
			}
			m, err := s.ParseMove(text)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: move %d (%s): %w", ErrBadRecord, i, Quote(text), err)
			}
			if err := s.ApplyMoveChecked(m); err != nil {
				return nil, nil, fmt.Errorf("%w: move %d (%s): %w", ErrBadRecord, i, Quote(text), err)
			}
			r.Moves = append(r.Moves, m)
		}
	}
	if h := s.Hash(); !r.NoChecksum && h != r.Checksum {
		return nil, nil, fmt.Errorf("%w: checksum %016x does not match the replayed position's %016x (after %d moves)", ErrBadRecord, r.Checksum, h, len(r.Moves))
	}
	if r.Moves == nil {
		r.Moves = []Move{}
	}
	return r, s, nil
}

// decodeAgents reads a record's "agents" list one name at a time, refusing it as soon as it
// names more seats than the game has (so a huge list is never held in memory).
func decodeAgents(raw json.RawMessage, players int) ([]string, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := d.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("%w: agents must be a list of names, one a seat", ErrBadRecord)
	}
	var agents []string
	for d.More() {
		if len(agents) == players {
			return nil, fmt.Errorf("%w: more agents than the %d seats", ErrBadRecord, players)
		}
		var a string
		if err := d.Decode(&a); err != nil {
			return nil, fmt.Errorf("%w: agents must be a list of names, one a seat", ErrBadRecord)
		}
		agents = append(agents, a)
	}
	if err := checkAgents(agents, players); err != nil {
		return nil, err
	}
	return agents, nil
}
