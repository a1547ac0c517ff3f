package rules

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is the most bytes of an offending input an error message quotes.
const MaxQuoted = 80

// Quote quotes s for an error message as %q does, keeping at most MaxQuoted bytes of it (cut
// at a character boundary) and saying how long it was: a 50 MB string in a file or a flag
// gives a one-line error, not 50 MB on the terminal. Every error that echoes input uses it.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	cut := MaxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}
