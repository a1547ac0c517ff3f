package rules

import "fmt"

// Colour is a container colour. Gold exists only with the Luxury Containers module.
type Colour uint8

// The container colours, in the order used by every array indexed by colour.
const (
	White Colour = iota
	Green
	Red
	Blue
	Yellow
	Gold
	// NumColours is the size of every colour-indexed array (the five normal colours and gold).
	NumColours = 6
	// NumNormalColours is the number of colours that have factories and scoring-card values.
	NumNormalColours = 5
)

var colourNames = [NumColours]string{"white", "green", "red", "blue", "yellow", "gold"}

// String returns the colour's lower-case name.
func (c Colour) String() string {
	if int(c) < len(colourNames) {
		return colourNames[c]
	}
	return fmt.Sprintf("colour(%d)", uint8(c))
}

// ParseColour reads a colour name (as written by String) or its first letter (w g r b y o; o is gold).
func ParseColour(s string) (Colour, error) {
	for i, n := range colourNames {
		if s == n {
			return Colour(i), nil
		}
	}
	switch s {
	case "w":
		return White, nil
	case "g":
		return Green, nil
	case "r":
		return Red, nil
	case "b":
		return Blue, nil
	case "y":
		return Yellow, nil
	case "o":
		return Gold, nil
	}
	return 0, fmt.Errorf("rules: unknown colour %s", Quote(s))
}

// Counts holds a number of containers per colour.
type Counts [NumColours]uint8

// Total is the number of containers of every colour together.
func (c *Counts) Total() int {
	// Sum the six bytes at once: pair them into 16-bit lanes, then add the lanes (a lane
	// cannot overflow: 6 x 255 < 65536).
	x := uint64(c[0]) | uint64(c[1])<<8 | uint64(c[2])<<16 | uint64(c[3])<<24 |
		uint64(c[4])<<32 | uint64(c[5])<<40
	x = x&0x00ff00ff00ff00ff + (x>>8)&0x00ff00ff00ff00ff
	return int((x * 0x0001000100010001) >> 48)
}

// Add adds o to c.
func (c *Counts) Add(o *Counts) {
	for i := range c {
		c[i] += o[i]
	}
}
