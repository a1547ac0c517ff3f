package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// The text forms of a position's pieces, shared by the JSON position format, the move
// notation and the CLI: containers as colour letters ("2w g o") and ship positions
// ("harbor 2").

var colourLetters = [NumColours]byte{'w', 'g', 'r', 'b', 'y', 'o'}

// ParseCounts reads containers written as colour letters (w g r b y, o for gold), each
// optionally preceded by a count: "wwg", "2w g", "3o". Spaces and commas are ignored; "" and
// "-" are no containers.
func ParseCounts(s string) (Counts, error) {
	var c Counts
	n := -1
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == ',' || (ch == '-' && len(strings.TrimSpace(s)) == 1):
			if n >= 0 {
				return c, fmt.Errorf("%w: containers %s: count %d without a colour", ErrBadPosition, Quote(s), n)
			}
		case ch >= '0' && ch <= '9':
			if n < 0 {
				n = 0
			}
			n = n*10 + int(ch-'0')
			if n > 255 {
				return c, fmt.Errorf("%w: containers %s: count too large", ErrBadPosition, Quote(s))
			}
		default:
			col := -1
			for k, l := range colourLetters {
				if ch == l || ch == l-'a'+'A' {
					col = k
				}
			}
			if col < 0 {
				return c, fmt.Errorf("%w: containers %s: unknown colour letter %q (want w g r b y o)", ErrBadPosition, Quote(s), ch)
			}
			if n < 0 {
				n = 1
			}
			if int(c[col])+n > 255 {
				return c, fmt.Errorf("%w: containers %s: count too large", ErrBadPosition, Quote(s))
			}
			c[col] += uint8(n)
			n = -1
		}
	}
	if n >= 0 {
		return c, fmt.Errorf("%w: containers %s: count %d without a colour", ErrBadPosition, Quote(s), n)
	}
	return c, nil
}

// Letters writes the containers as colour letters in colour order ("wwgo"); "" for none.
func (c Counts) Letters() string {
	var b strings.Builder
	for col, n := range c {
		for k := 0; k < int(n); k++ {
			b.WriteByte(colourLetters[col])
		}
	}
	return b.String()
}

// String writes the ship position as the position format does: ocean, island, bank, harbor N.
func (p ShipPos) String() string {
	switch p.Where {
	case AtOcean:
		return "ocean"
	case AtIsland:
		return "island"
	case AtBank:
		return "bank"
	case AtHarbor:
		return fmt.Sprintf("harbor %d", p.Seat)
	}
	return fmt.Sprintf("where(%d)", p.Where)
}

// ParseShipPos reads "ocean", "island", "bank" or "harbor N" (N the owner's seat index,
// 0-based) or "harbor pN" (the owner as the move notation names seats, 1-based).
func ParseShipPos(s string) (ShipPos, error) {
	f := strings.Fields(strings.ToLower(s))
	switch {
	case len(f) == 1 && f[0] == "ocean":
		return ShipPos{Where: AtOcean}, nil
	case len(f) == 1 && f[0] == "island":
		return ShipPos{Where: AtIsland}, nil
	case len(f) == 1 && f[0] == "bank":
		return ShipPos{Where: AtBank}, nil
	case len(f) == 2 && f[0] == "harbor" && strings.HasPrefix(f[1], "p"):
		n, err := strconv.Atoi(f[1][1:])
		if err == nil && n >= 1 && n <= MaxPlayers {
			return ShipPos{Where: AtHarbor, Seat: int8(n - 1)}, nil
		}
	case len(f) == 2 && f[0] == "harbor":
		n, err := strconv.Atoi(f[1])
		if err == nil && n >= 0 && n < MaxPlayers {
			return ShipPos{Where: AtHarbor, Seat: int8(n)}, nil
		}
	}
	return ShipPos{}, fmt.Errorf("%w: ship position %s (want ocean, island, bank or harbor N)", ErrBadPosition, Quote(s))
}
