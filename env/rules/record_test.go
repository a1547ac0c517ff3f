package rules

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"slices"
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

// TestRecordBinaryShortInputsAreRefused: a file that starts with the magic, with or without
// a valid CRC, is refused with an error, never a panic, at every length up to a record of no
// moves (with a wrong checksum); one shorter than a header, checksum and CRC together says
// "truncated: N bytes" (a record cut short, not another kind of file), a longer one is read
// further, and a header cut inside its option varints says "truncated". Only a file
// without the magic is "not a Container game record".
func TestRecordBinaryShortInputsAreRefused(t *testing.T) {
	var r Record
	short := len(recordMagic) + 5 + 8 + 4 // magic, version and option bytes, checksum, CRC
	full := append(bytes.Clone(recordMagic), recordBinaryVersion, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	full = append(full, make([]byte, 8)...) // a checksum no position has
	for n := len(recordMagic); n <= len(full); n++ {
		for _, data := range [][]byte{full[:n], withCRC(full[:n])} {
			err := r.UnmarshalBinary(data)
			if !errors.Is(err, ErrBadRecord) {
				t.Errorf("%d bytes (% x): %v", len(data), data, err)
			}
			says := fmt.Sprintf("truncated: %d bytes", len(data))
			if err != nil && strings.Contains(err.Error(), says) != (len(data) < short) {
				t.Errorf("%d bytes (% x): %v; saying %q only below %d bytes", len(data), data, err, says, short)
			}
		}
	}
	for _, data := range [][]byte{recordMagic[:3], []byte("CTNX"), append([]byte("CTNX"), full[4:]...)} {
		if err := r.UnmarshalBinary(data); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "not a Container game record (magic)") {
			t.Errorf("% x: %v, want it refused as not a record", data, err)
		}
	}
	cut := append(append(bytes.Clone(recordMagic), recordBinaryVersion, 3, 0, 0, 0), bytes.Repeat([]byte{0x80}, 8)...)
	if err := r.UnmarshalBinary(withCRC(cut)); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("a header cut inside an option value: %v", err)
	}
}

// TestRecordBinaryActionIDRange: every id below NumDistinctActions is a real action (one
// illegal in the position is refused as illegal, not as out of range); the first id past
// the end is refused as out of range, the error naming the id.
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
		if says := fmt.Sprintf("move 0: action id %d is out of range", tc.id); tc.refused && !strings.Contains(err.Error(), says) {
			t.Errorf("action id %d: %v, want it to say %q", tc.id, err, says)
		}
	}
}

// TestRecordBinaryOptionValuesAreJudgedByTheOptions: an option value up to 2^20 is read and
// refused by the options check, which names the option and its range; a larger one is
// refused as out of range before it could overflow an int.
func TestRecordBinaryOptionValuesAreJudgedByTheOptions(t *testing.T) {
	for _, tc := range []struct {
		containers uint64
		says       string
	}{
		{1 << 20, "containers_per_colour: 1048576 is outside 0..60"},
		{1<<20 + 1, "option value 1048577 out of range"},
	} {
		body := append(bytes.Clone(recordMagic), recordBinaryVersion, 3, 0, 0, 0)
		body = binary.AppendUvarint(body, tc.containers)
		body = append(body, 0, 0, 0, 0, 0, 0) // the other four options, seed 0, no moves
		body = append(body, make([]byte, 8)...)
		var r Record
		if err := r.UnmarshalBinary(withCRC(body)); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("containers per colour %d: %v, want it to say %q", tc.containers, err, tc.says)
		}
	}
}

// TestRecordBinaryWithoutItsChecksumSaysSo: a record that ends after its moves, without the
// 8-byte checksum, is refused as missing the checksum.
func TestRecordBinaryWithoutItsChecksumSaysSo(t *testing.T) {
	body := append(bytes.Clone(recordMagic), recordBinaryVersion, 3, 0, 0, 0, 0, 0, 0, 0, 0)
	body = binary.AppendUvarint(body, 1<<62) // a seed of 9 bytes: longer than the shortest header
	body = binary.AppendUvarint(body, 0)     // no moves
	var r Record
	const says = "0 bytes left after the moves (want the 8-byte checksum)"
	if err := r.UnmarshalBinary(withCRC(body)); !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), says) {
		t.Errorf("a record without its checksum: %v, want it to say %q", err, says)
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

// A record may name the agent of each seat: the names are written before the moves, read
// back in seat order, and change nothing of the game; a record without them is written
// exactly as before (no "agents" key).
func TestRecordNamesTheAgentsOfItsSeats(t *testing.T) {
	s := supportRandomGame(t, Options{Players: 3}, 5, 3000)
	r := NewRecord(s, 5)
	plain, err := r.MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte(`"agents"`)) {
		t.Fatalf("a record without agents writes an agents key:\n%s", plain)
	}
	r.Agents = []string{"default", "valuer", "runs/my bot.bot@0.5"}
	named, err := r.MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(named, []byte(`  "agents": ["default","valuer","runs/my bot.bot@0.5"],`+"\n"+`  "moves": [`)) {
		t.Fatalf("agents not written before the moves:\n%.300s", named)
	}
	back, st, err := LoadRecord(named)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Agents, r.Agents) {
		t.Errorf("agents read back %q, want %q", back.Agents, r.Agents)
	}
	if st.Hash() != s.Hash() || len(back.Moves) != len(r.Moves) {
		t.Error("the named record replays to another game")
	}
	old, _, err := LoadRecord(plain)
	if err != nil {
		t.Fatal(err)
	}
	if old.Agents != nil {
		t.Errorf("a record without agents reads agents %q", old.Agents)
	}
}

// A record's agents must name every seat once with a printable name of at most
// MaxRecordAgentBytes bytes; anything else is refused with ErrBadRecord, when written and
// when read, and a list longer than the seats is refused without reading all of it.
func TestRecordRefusesAgentsThatDoNotNameEverySeat(t *testing.T) {
	s := supportRandomGame(t, Options{Players: 3}, 6, 50)
	r := NewRecord(s, 6)
	good, err := r.MarshalRecord()
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{
		"two for three seats":   `["a","b"]`,
		"four for three seats":  `["a","b","c","d"]`,
		"an empty name":         `["a","","c"]`,
		"a control character":   `["a","b\u0007","c"]`,
		"not a list":            `"a,b,c"`,
		"null":                  `null`,
		"a number":              `["a",2,"c"]`,
		"a name over the limit": `["a","` + strings.Repeat("x", MaxRecordAgentBytes+1) + `","c"]`,
		"a huge list":           `[` + strings.Repeat(`"a",`, 100000) + `"a"]`,
	}
	for name, agents := range bad {
		data := bytes.Replace(good, []byte(`  "moves": [`), []byte(`  "agents": `+agents+",\n"+`  "moves": [`), 1)
		if _, _, err := LoadRecord(data); !errors.Is(err, ErrBadRecord) {
			t.Errorf("%s: LoadRecord error %v, want ErrBadRecord", name, err)
		}
	}
	for _, agents := range [][]string{{"a", "b"}, {"a", "", "c"}, {"a", "b\n", "c"}, {"a", strings.Repeat("x", MaxRecordAgentBytes+1), "c"}} {
		r.Agents = agents
		if _, err := r.MarshalRecord(); !errors.Is(err, ErrBadRecord) {
			t.Errorf("MarshalRecord with agents %.40q: error %v, want ErrBadRecord", agents, err)
		}
	}
	r.Agents = []string{"a", strings.Repeat("x", MaxRecordAgentBytes), "c"}
	if _, err := r.MarshalRecord(); err != nil {
		t.Errorf("a name of exactly MaxRecordAgentBytes: %v", err)
	}
}
