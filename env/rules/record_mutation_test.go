package rules

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

// withCRC appends the CRC-32 a binary record ends with, so a test can hand-build a record
// that passes the CRC and reaches the decoder's later checks.
func withCRC(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.ChecksumIEEE(body))
}

// binaryHeader3p is the header of a default 3-player binary record with seed 0, up to (not
// including) the move count: magic, version, players, length, variant, modules, the five
// option uvarints and the seed.
func binaryHeader3p() []byte {
	return append(bytes.Clone(recordMagic), recordBinaryVersion, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

// TestRecordWithoutMovesRoundTrips: a record saved before the first move writes an empty
// move list ("moves": []) and reads back, in JSON and in binary; a record of one move closes
// its list on a line of its own.
func TestRecordWithoutMovesRoundTrips(t *testing.T) {
	g, err := NewGame(Options{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := g.NewInitialStateSeed(4)
	r := NewRecord(s, 4)
	js, err := r.MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`"moves": [],`)) {
		t.Errorf("a record without moves does not write \"moves\": []:\n%s", js)
	}
	if r2, s2, err := LoadRecord(js); err != nil || len(r2.Moves) != 0 || s2.Hash() != s.Hash() {
		t.Errorf("JSON record without moves: %v", err)
	}
	bin, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var rb Record
	if err := rb.UnmarshalBinary(bin); err != nil || len(rb.Moves) != 0 || rb.Checksum != s.Hash() {
		t.Errorf("binary record without moves: %v", err)
	}
	var ids []int
	s.Apply(s.LegalActions(ids)[0])
	one, err := NewRecord(s, 4).MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(one, []byte("\"\n  ],")) {
		t.Errorf("a one-move record does not close its list on its own line:\n%s", one)
	}
}

// TestRecordWithoutMovesKeyLoads: "moves" may be left out of a JSON record (a game not yet
// started); it loads as a record of no moves.
func TestRecordWithoutMovesKeyLoads(t *testing.T) {
	r, s, err := LoadRecord([]byte(`{"format": "` + RecordFormat + `", "options": {"players": 4}, "seed": 9}`))
	if err != nil || len(r.Moves) != 0 || s.Steps != 0 {
		t.Fatalf("record without \"moves\": %v", err)
	}
}

// TestRecordSizeLimitIsInclusive: MaxRecordBytes is the largest accepted record, in JSON
// (a valid record padded with blanks to exactly that size loads) and in binary (a file of
// exactly that size is read, so its error is not the size error); one byte more is refused
// with a one-line size error.
func TestRecordSizeLimitIsInclusive(t *testing.T) {
	g, _ := NewGame(Options{Players: 3})
	js, err := NewRecord(g.NewInitialStateSeed(2), 2).MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	full := append(bytes.Clone(js), bytes.Repeat([]byte(" "), MaxRecordBytes-len(js))...)
	if _, _, err := LoadRecord(full); err != nil {
		t.Errorf("a JSON record of exactly MaxRecordBytes: %v", err)
	}
	if _, _, err := LoadRecord(append(full, ' ')); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a JSON record one byte over MaxRecordBytes: %v", err)
	}
	bin := make([]byte, MaxRecordBytes)
	copy(bin, recordMagic)
	var r Record
	if err := r.UnmarshalBinary(bin); !errors.Is(err, ErrBadRecord) || strings.Contains(err.Error(), "at most") || !strings.Contains(err.Error(), "CRC") {
		t.Errorf("a binary file of exactly MaxRecordBytes is refused for its size: %v", err)
	}
	if err := r.UnmarshalBinary(append(bin, 0)); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a binary file one byte over MaxRecordBytes: %v", err)
	}
}

// TestRecordBinaryShortInputsAreRefused: a file that starts with the magic and carries a
// valid CRC but is too short to hold a header is refused with an error, never a panic, at
// every length; a header cut inside its option varints says "truncated".
func TestRecordBinaryShortInputsAreRefused(t *testing.T) {
	var r Record
	full := append(bytes.Clone(recordMagic), recordBinaryVersion, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	for n := len(recordMagic); n <= len(full); n++ {
		for _, data := range [][]byte{full[:n], withCRC(full[:n])} {
			if err := r.UnmarshalBinary(data); !errors.Is(err, ErrBadRecord) {
				t.Errorf("%d bytes (% x): %v", len(data), data, err)
			}
		}
	}
	cut := append(append(bytes.Clone(recordMagic), recordBinaryVersion, 3, 0, 0, 0), bytes.Repeat([]byte{0x80}, 8)...)
	if err := r.UnmarshalBinary(withCRC(cut)); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("a header cut inside an option value: %v", err)
	}
}

// TestRecordBinaryActionIDRange: every id below NumDistinctActions is a real action (one
// illegal in the position is refused as illegal, not as out of range); the first id past
// the end is refused as out of range.
func TestRecordBinaryActionIDRange(t *testing.T) {
	n := NumDistinctActions()
	for _, tc := range []struct {
		id      int
		refused bool
	}{{n - 1, false}, {n - 2, false}, {n, true}, {n + 1000, true}} {
		body := binary.AppendUvarint(binaryHeader3p(), 1)
		body = binary.AppendUvarint(body, uint64(tc.id)+1)
		body = append(body, make([]byte, 8)...)
		var r Record
		err := r.UnmarshalBinary(withCRC(body))
		if !errors.Is(err, ErrBadRecord) || strings.Contains(err.Error(), "out of range") != tc.refused {
			t.Errorf("action id %d (of %d): %v", tc.id, n, err)
		}
	}
}

// TestRecordBinaryAmountField: a move stored by its fields carries a varint amount that
// must fit an int32: -2^31 is read (and the move judged: a negative bid is illegal), 2^31
// does not fit and is refused without being wrapped to a negative amount, and an amount
// cut off at the end of the file is "truncated".
func TestRecordBinaryAmountField(t *testing.T) {
	fields := []byte{0, byte(Amount), 0, 0, 0, 0}
	for _, tc := range []struct {
		amount  int64
		cut     bool
		want    string
		illegal bool
	}{
		{amount: -1 << 31, illegal: true},
		{amount: 1 << 31, want: "move 0: truncated"},
		{amount: 5, cut: true, want: "move 0: truncated"},
	} {
		body := binary.AppendUvarint(binaryHeader3p(), 1)
		body = append(body, fields...)
		if !tc.cut {
			body = binary.AppendVarint(body, tc.amount)
			body = append(body, make([]byte, 8)...)
		}
		var r Record
		err := r.UnmarshalBinary(withCRC(body))
		if !errors.Is(err, ErrBadRecord) {
			t.Fatalf("amount %d cut %v: %v", tc.amount, tc.cut, err)
		}
		if tc.illegal && (!errors.Is(err, ErrIllegalAction) || !strings.Contains(err.Error(), "-2147483648")) {
			t.Errorf("amount %d: want an illegal-move error naming it, got %v", tc.amount, err)
		}
		if tc.want != "" && (!strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrIllegalAction)) {
			t.Errorf("amount %d cut %v: want %q, got %v", tc.amount, tc.cut, tc.want, err)
		}
	}
}
