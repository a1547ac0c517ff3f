package datasets

import (
	"errors"
	"testing"
)

// Validate refuses a feature only when it lies outside the observation width: an empty
// feature (size 0) anywhere inside the width, up to its end, is valid; one starting past the
// end, or with a negative offset or size, is not.
func TestMetaValidateRefusesOnlyFeaturesOutsideTheWidth(t *testing.T) {
	for _, c := range []struct {
		f  Feature
		ok bool
	}{
		{Feature{Name: "empty", Offset: 0, Size: 0}, true},
		{Feature{Name: "empty at the end", Offset: 11, Size: 0}, true},
		{Feature{Name: "whole", Offset: 0, Size: 11}, true},
		{Feature{Name: "past the end", Offset: 12, Size: 0}, false},
		{Feature{Name: "one too wide", Offset: 1, Size: 11}, false},
		{Feature{Name: "negative offset", Offset: -1, Size: 1}, false},
		{Feature{Name: "negative size", Offset: 2, Size: -1}, false},
	} {
		m := testMeta(true, true)
		m.Features = append(m.Features, c.f)
		err := m.Validate()
		if c.ok && err != nil {
			t.Errorf("%s: %v", c.f.Name, err)
		}
		if !c.ok && !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", c.f.Name, err)
		}
	}
}
