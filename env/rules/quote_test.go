package rules

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Quote keeps an input of exactly MaxQuoted bytes whole; one byte more is cut to MaxQuoted
// bytes with the length said.
func TestQuoteKeepsExactlyMaxQuotedBytesWhole(t *testing.T) {
	s := strings.Repeat("a", MaxQuoted)
	var got string
	noPanic(t, "Quote of MaxQuoted bytes", func() { got = Quote(s) })
	if got != strconv.Quote(s) {
		t.Errorf("Quote(%d bytes) = %s, want it whole", MaxQuoted, got)
	}
	s += "b"
	if got, want := Quote(s), strconv.Quote(s[:MaxQuoted])+"... (81 bytes)"; got != want {
		t.Errorf("Quote(%d bytes) = %s, want %s", len(s), got, want)
	}
}

// Quote never splits a character: a multi-byte character that straddles the cut is left out
// whole. Bytes that are no character at all (a corrupt file) are cut, never a panic.
func TestQuoteCutsAtACharacterBoundaryAndSurvivesInvalidUTF8(t *testing.T) {
	s := strings.Repeat("a", MaxQuoted-1) + "€€" // '€' is 3 bytes; the first straddles the cut
	if got, want := Quote(s), strconv.Quote(s[:MaxQuoted-1])+"... (85 bytes)"; got != want {
		t.Errorf("Quote(straddling) = %s, want %s", got, want)
	}
	bad := strings.Repeat("\x80", 100) // continuation bytes only: no character starts anywhere
	var got string
	noPanic(t, "Quote of continuation bytes", func() { got = Quote(bad) })
	if !strings.HasSuffix(got, "... (100 bytes)") || len(got) > MaxQuoted*4+30 || !utf8.ValidString(got) {
		t.Errorf("Quote(100 continuation bytes) = %s", got)
	}
}

func TestQuoteCutsLongInput(t *testing.T) {
	if got := Quote("wxg"); got != `"wxg"` {
		t.Errorf("Quote(short) = %s", got)
	}
	long := strings.Repeat("é", 100) // 200 bytes, cut at a character boundary
	got := Quote(long)
	if !strings.HasSuffix(got, "... (200 bytes)") || len(got) > MaxQuoted+30 || !strings.HasPrefix(got, `"éé`) {
		t.Errorf("Quote(long) = %s", got)
	}
}
