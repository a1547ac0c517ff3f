package conformance

import (
	"errors"
	"slices"
	"testing"

	"github.com/container-rl/container/env/rules"
)

// FuzzApplySequence feeds arbitrary bytes to ApplyChecked as action ids: each pair of bytes
// is a value v; odd v picks a legal action (v>>1 modulo the number of legal actions, so the
// fuzzer can go deep into a game), even v is any id (v>>1 modulo NumDistinctActions).
// ApplyChecked must never panic, must accept every legal id, and must reject every other id
// with ErrIllegalAction, leaving the Hash unchanged. The first byte picks players, variant
// and modules.
func FuzzApplySequence(f *testing.F) {
	f.Add(uint8(0), uint64(1), []byte{1, 1, 1, 3, 0, 14, 1, 5, 1, 7, 0, 200, 1, 9})
	f.Add(uint8(1), uint64(2), []byte{0, 30, 1, 1, 0, 40, 1, 3, 1, 3, 1, 3, 0, 15})
	f.Add(uint8(5), uint64(3), []byte{1, 11, 1, 13, 1, 15, 1, 17, 1, 19, 1, 21, 0, 8})
	f.Add(uint8(42), uint64(4), []byte{1, 1, 1, 3, 1, 5, 1, 7, 0, 9, 1, 11, 1, 13, 0, 250})
	nd := rules.NumDistinctActions()
	f.Fuzz(func(t *testing.T, cfg uint8, seed uint64, data []byte) {
		o := rules.Options{Players: 3 + int(cfg%3), Variant: rules.Variant(cfg / 3 % 2), Modules: rules.Modules(cfg / 6 % 8)}
		g, err := rules.NewGame(o)
		if err != nil {
			return // Classic with Truck Companies is not a game
		}
		s := g.NewInitialStateSeed(seed)
		var legal []int
		for i := 0; i+1 < len(data) && !s.IsTerminal(); i += 2 {
			v := int(data[i])<<8 | int(data[i+1])
			legal = s.LegalActions(legal)
			id := (v >> 1) % nd
			if v&1 == 1 {
				id = legal[(v>>1)%len(legal)]
			}
			before := s.Hash()
			err := s.ApplyChecked(id)
			if _, ok := slices.BinarySearch(legal, id); ok {
				if err != nil {
					t.Fatalf("legal action %d rejected: %v", id, err)
				}
				continue
			}
			if !errors.Is(err, rules.ErrIllegalAction) {
				t.Fatalf("illegal action %d (%s): error %v, want ErrIllegalAction", id, s.ActionToMove(id), err)
			}
			if s.Hash() != before {
				t.Fatalf("rejected action %d changed the position", id)
			}
		}
	})
}
