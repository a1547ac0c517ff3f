package datasets

import (
	"errors"
	"testing"
)

// A part index out of range is refused with one line naming the part and the valid range of
// indexes (0 to count-1); a count out of range names its bound.
func TestPartValidateNamesTheValidRange(t *testing.T) {
	for _, c := range []struct {
		p    Part
		want string
	}{
		{Part{Index: 3, Count: 3}, "datasets: invalid input: part 3/3: the index must be 0 to 2"},
		{Part{Index: -1, Count: 5}, "datasets: invalid input: part -1/5: the index must be 0 to 4"},
		{Part{Index: 0, Count: 0}, "datasets: invalid input: part 0/0: the part count must be at least 1"},
		{Part{Index: 0, Count: MaxParts + 1}, "datasets: invalid input: part 0/1048577: at most 1048576 parts"},
	} {
		err := c.p.Validate()
		if !errors.Is(err, ErrInvalid) || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.p, err, c.want)
		}
	}
	if err := (Part{Index: 2, Count: 3}).Validate(); err != nil {
		t.Errorf("part 2/3: %v", err)
	}
}
