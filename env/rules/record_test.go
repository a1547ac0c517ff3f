package rules

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// supportRandomGame plays seeded uniformly random legal actions until the game ends or
// maxSteps decisions were made, and returns the final state.
func supportRandomGame(t testing.TB, o Options, seed uint64, maxSteps int) *State {
	t.Helper()
	g, err := NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(seed)
	r := rand.New(rand.NewPCG(seed, 99))
	var buf []int
	for step := 0; !s.IsTerminal() && step < maxSteps; step++ {
		buf = s.LegalActions(buf)
		if len(buf) == 0 {
			t.Fatalf("seed %d step %d: no legal action in phase %s", seed, step, s.Decision().Phase)
		}
		s.Apply(buf[r.IntN(len(buf))])
	}
	return s
}

func TestRecordJSONRoundTrip(t *testing.T) {
	for _, o := range []Options{{Players: 3}, {Players: 4, Variant: Classic}, {Players: 5, Length: Short}} {
		for seed := uint64(1); seed <= 3; seed++ {
			s := supportRandomGame(t, o, seed, 3000)
			r := NewRecord(s, seed)
			data, err := r.MarshalRecord()
			if err != nil {
				t.Fatal(err)
			}
			r2, s2, err := LoadRecord(data)
			if err != nil {
				t.Fatalf("%d players seed %d: %v", o.Players, seed, err)
			}
			if s2.Hash() != s.Hash() || len(r2.Moves) != len(r.Moves) {
				t.Fatalf("replayed position differs (%d vs %d moves)", len(r2.Moves), len(r.Moves))
			}
			data2, _ := r2.MarshalRecord()
			if !bytes.Equal(data, data2) {
				t.Fatal("second JSON write differs from the first")
			}
		}
	}
}

func TestRecordJSONErrorsNameTheMove(t *testing.T) {
	s := supportRandomGame(t, Options{Players: 3}, 5, 200)
	data, err := NewRecord(s, 5).MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	// A wrong checksum.
	bad := []byte(strings.Replace(string(data), `"checksum": "`, `"checksum": "zz`, 1))
	if _, _, err := LoadRecord(bad); !errors.Is(err, ErrBadRecord) {
		t.Errorf("malformed checksum: %v", err)
	}
	r := NewRecord(s, 5)
	r.Checksum ^= 1
	wrong, _ := r.MarshalRecord()
	if _, _, err := LoadRecord(wrong); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("wrong checksum: %v", err)
	}
	// An illegal move: replace the third move with one that is illegal there.
	r = NewRecord(s, 5)
	r.Moves[2] = Move{Kind: RepayLoan, Index: 1}
	illegal, _ := r.MarshalRecord()
	_, _, err = LoadRecord(illegal)
	if !errors.Is(err, ErrBadRecord) || !errors.Is(err, ErrIllegalAction) || !strings.Contains(err.Error(), "move 2 ") {
		t.Errorf("illegal move: %v", err)
	}
	if _, err := r.Verify(); err == nil || !strings.Contains(err.Error(), "move 2 ") {
		t.Errorf("Verify of an illegal record: %v", err)
	}
	// Unparsable notation.
	garbled := bytes.Replace(data, []byte(`"moves": [`+"\n    \""), []byte(`"moves": [`+"\n    \"xyzzy "), 1)
	if _, _, err := LoadRecord(garbled); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "move 0 ") {
		t.Errorf("garbled move: %v", err)
	}
}

func TestRecordBinaryRoundTrip(t *testing.T) {
	for _, o := range []Options{{Players: 3}, {Players: 4, Variant: Classic, TurnLimit: 60}, {Players: 5, Length: Extended}} {
		s := supportRandomGame(t, o, 11, 4000)
		r := NewRecord(s, 11)
		bin, err := r.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var r2 Record
		if err := r2.UnmarshalBinary(bin); err != nil {
			t.Fatal(err)
		}
		if r2.Checksum != r.Checksum || r2.Seed != r.Seed || r2.Options != r.Options || len(r2.Moves) != len(r.Moves) {
			t.Fatalf("binary round trip changed the record: %+v vs %+v", r2.Options, r.Options)
		}
		for i := range r.Moves {
			if r.Moves[i] != r2.Moves[i] {
				t.Fatalf("move %d: %v became %v", i, r.Moves[i], r2.Moves[i])
			}
		}
		js, _ := r.MarshalRecord()
		t.Logf("%d players: %d moves, binary %d bytes, JSON %d bytes", o.Players, len(r.Moves), len(bin), len(js))
	}
}

// TestRecordBinaryAmountWithoutID: a bid above MaxAmountID has no action id and is stored
// with its fields.
func TestRecordBinaryAmountWithoutID(t *testing.T) {
	pos := `{"options": {"players": 3}, "players": [{"cash": 150, "factories": "w"}, {"factories": "g"}, {"factories": "r"}],
		"bank": {"container_lots": ["wy", "", ""], "cash_lots": [1, 2, 3]}}`
	s, err := LoadPosition([]byte(pos))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyMoveChecked(Move{Kind: CallBankStart, Index: 0}); err != nil {
		t.Fatal(err)
	}
	bid := Move{Kind: Amount, Amount: 120}
	if _, ok := s.MoveToAction(bid); ok {
		t.Fatal("$120 has an action id")
	}
	b := appendBinaryMove(nil, s, bid)
	if b[0] != 0 {
		t.Fatalf("id-less move written as %v", b)
	}
	m, rest, err := readBinaryMove(append(b, 0xAA), s)
	if err != nil || m != bid || len(rest) != 1 {
		t.Fatalf("read back %v, %v, rest %v", m, err, rest)
	}
	if err := s.ApplyMoveChecked(m); err != nil {
		t.Fatalf("the $120 bid is not legal: %v", err)
	}
	small := Move{Kind: Amount, Amount: 7}
	if b := appendBinaryMove(nil, s, small); b[0] == 0 {
		t.Errorf("$7 written without its id: %v", b)
	}
}

func TestRecordBinaryCorruption(t *testing.T) {
	s := supportRandomGame(t, Options{Players: 4}, 21, 1500)
	bin, err := NewRecord(s, 21).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	for i := 0; i < len(bin); i++ {
		for _, flip := range []byte{0x01, 0x80} {
			c := bytes.Clone(bin)
			c[i] ^= flip
			if err := r.UnmarshalBinary(c); !errors.Is(err, ErrBadRecord) {
				t.Fatalf("flipping bit %#x of byte %d went unnoticed: %v", flip, i, err)
			}
		}
	}
	for _, n := range []int{0, 3, 10, len(bin) / 2, len(bin) - 1} {
		if err := r.UnmarshalBinary(bin[:n]); !errors.Is(err, ErrBadRecord) {
			t.Errorf("truncated to %d bytes: %v", n, err)
		}
	}
	// A valid CRC over a body whose checksum is wrong: the replay catches it.
	rec := NewRecord(s, 21)
	rec.Checksum++
	bad, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.UnmarshalBinary(bad); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("wrong checksum with a good CRC: %v", err)
	}
}

func BenchmarkRecordReplay(b *testing.B) {
	s := supportRandomGame(b, Options{Players: 4}, 8, 5000)
	r := NewRecord(s, 8)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Verify(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(r.Moves)), "moves/game")
}

// A record of a later format version names the version instead of tripping over a field this
// version does not know.
func TestRecordOfAnotherFormatVersionSaysSo(t *testing.T) {
	rec := []byte(`{"format": "container-game/2", "options": {"players": 4}, "seed": 7, "moves": [], "start": {}, "checksum": "0"}`)
	_, _, err := LoadRecord(rec)
	if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "unsupported record format version 2") {
		t.Fatalf("LoadRecord(container-game/2) = %v, want ErrBadRecord saying unsupported record format 2", err)
	}
}
