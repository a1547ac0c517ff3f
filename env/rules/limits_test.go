package rules

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"runtime"
	"strings"
	"testing"
)

// TestTurnLimitBounded: a turn limit above MaxTurnLimit is refused (1e17 overflowed
// MaxGameLength before 2026-12-01), and the largest one keeps MaxGameLength positive.
func TestTurnLimitBounded(t *testing.T) {
	for _, tl := range []int{-1, MaxTurnLimit + 1, 1e17} {
		if err := (Options{Players: 4, TurnLimit: tl}).Validate(); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("turn limit %d: %v, want ErrInvalidOptions", tl, err)
		}
	}
	g, err := NewGame(Options{Players: 4, TurnLimit: MaxTurnLimit})
	if err != nil {
		t.Fatal(err)
	}
	if n := g.MaxGameLength(); n <= 0 || n != MaxTurnLimit*MaxStepsPerTurn+maxEndSteps {
		t.Fatalf("MaxGameLength %d", n)
	}
}

// TestHugeStringGivesShortError: a position whose ship is a 50 MB string
// of bad letters, a record whose move is one, and a 50 MB variant name give errors of a few
// hundred bytes, not 50 MB.
func TestHugeStringGivesShortError(t *testing.T) {
	// -short uses 2 MB (still twice the position limit; the record's move is 1 MB).
	hugeLen, recMove := 50<<20, MaxRecordBytes/2
	if testing.Short() {
		hugeLen, recMove = 2<<20, 1<<20
	}
	huge := strings.Repeat("x", hugeLen)
	pos := `{"options": {"players": 3}, "players": [{"factories": "w", "ship": "` + huge[:MaxPositionBytes/2] + `"}, {"factories": "g"}, {"factories": "r"}]}`
	_, err := LoadPosition([]byte(pos))
	if !errors.Is(err, ErrBadPosition) || len(err.Error()) > 500 {
		t.Errorf("position: %d-byte error %.200v", len(err.Error()), err)
	}
	_, err = LoadPosition([]byte(`{"format": "` + huge + `"}`))
	if !errors.Is(err, ErrBadPosition) || len(err.Error()) > 500 {
		t.Errorf("%d-byte position: %d-byte error", hugeLen, len(err.Error()))
	}
	rec := `{"format": "container-game/1", "options": {"players": 3}, "seed": 1, "moves": ["` + huge[:recMove] + `"], "checksum": "0000000000000000"}`
	_, _, err = LoadRecord([]byte(rec))
	if !errors.Is(err, ErrBadRecord) || len(err.Error()) > 500 {
		t.Errorf("record: %d-byte error %.200v", len(err.Error()), err)
	}
	if _, err := ParseVariant(huge); err == nil || len(err.Error()) > 500 {
		t.Errorf("variant: %d-byte error", len(err.Error()))
	}
	if _, err := ParseCounts(huge); err == nil || len(err.Error()) > 500 {
		t.Errorf("counts: %d-byte error", len(err.Error()))
	}
}

// TestHugeRecordRefusedWithoutHugeAllocation: a JSON record of 10
// million moves (60 MB; before 2026-12-01 it allocated 0.9 GB before its error) is refused by
// size before decoding; one of 4 million moves (24 MB, under MaxRecordBytes) is refused at
// the first move past the game's end without holding its moves as strings.
func TestHugeRecordRefusedWithoutHugeAllocation(t *testing.T) {
	record := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString(`{"format": "container-game/1", "options": {"players": 3, "turn_limit": 5}, "seed": 1, "moves": [`)
		b.Write(bytes.Repeat([]byte(`"end",`), n-1))
		b.WriteString(`"end"`)
		b.WriteString(`], "checksum": "0000000000000000"}`)
		return b.Bytes()
	}
	// -short: just over the size limit, and 1 million moves (6 MB) past the game's end.
	over, long := 10_000_000, 4_000_000
	if testing.Short() {
		over, long = MaxRecordBytes/6+1, 1_000_000
	}
	var m0, m1 runtime.MemStats
	data := record(over)
	runtime.ReadMemStats(&m0)
	_, _, err := LoadRecord(data)
	runtime.ReadMemStats(&m1)
	if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "a record is at most") {
		t.Fatalf("%d-move record: %v", over, err)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 1<<20 {
		t.Errorf("%d-move record: %d bytes allocated before refusing it", over, alloc)
	}
	data = record(long)
	runtime.ReadMemStats(&m0)
	_, _, err = LoadRecord(data)
	runtime.ReadMemStats(&m1)
	if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "the game is already over") {
		t.Fatalf("%d-move record: %v", long, err)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 4*uint64(len(data)) {
		t.Errorf("%d-move record: %d bytes allocated for %d bytes of input", long, alloc, len(data))
	}
	big := make([]byte, MaxRecordBytes+1)
	var r Record
	if err := r.UnmarshalBinary(big); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "at most") {
		t.Errorf("oversized binary record: %v", err)
	}
	if _, err := LoadPosition(big[:MaxPositionBytes+1]); !errors.Is(err, ErrBadPosition) || !strings.Contains(err.Error(), "at most") {
		t.Errorf("oversized position: %v", err)
	}
}

// TestRecordMoveCountBoundedByGameLength: MaxGameLength is the documented bound, and a
// binary record claiming more moves than it is refused before its moves are allocated; one
// claiming exactly MaxGameLength moves is read and its moves judged.
func TestRecordMoveCountBoundedByGameLength(t *testing.T) {
	g, _ := NewGame(Options{Players: 3, TurnLimit: 1})
	if got := g.MaxGameLength(); got != MaxStepsPerTurn+maxEndSteps {
		t.Fatalf("MaxGameLength %d", got)
	}
	if g2, _ := NewGame(Options{Players: 4}); g2.MaxGameLength() != 322_226 {
		t.Fatalf("default MaxGameLength %d, docs say 322,226", g2.MaxGameLength())
	}
	// A binary record of 3 players, turn limit 1, claiming n moves (ids "end").
	claim := func(n int) error {
		b := append([]byte{}, recordMagic...)
		b = append(b, recordBinaryVersion, 3, 0, 0, 0)
		for _, v := range []uint64{0, 0, 0, 0, 1, 7, uint64(n)} {
			b = binary.AppendUvarint(b, v)
		}
		b = append(b, bytes.Repeat([]byte{1}, n)...)
		b = binary.LittleEndian.AppendUint64(b, 0)
		b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
		var r Record
		return r.UnmarshalBinary(b)
	}
	if err := claim(1000); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "at most 548 decisions") {
		t.Fatalf("binary record of 1000 moves: %v", err)
	}
	if err := claim(548); !errors.Is(err, ErrBadRecord) || strings.Contains(err.Error(), "at most") || !strings.Contains(err.Error(), "move ") {
		t.Fatalf("binary record of 548 moves: %v, want its moves judged", err)
	}
}
