package training

import (
	"errors"
	"strings"
	"testing"
)

// TestResumeComparesSettingsByValueNotBySpelling: saved options written with spaces (an
// indented or hand-formatted run.json) match the same settings given again; a changed value
// is still refused.
func TestResumeComparesSettingsByValueNotBySpelling(t *testing.T) {
	type net struct {
		Width int `json:"width"`
	}
	type opts struct {
		Opponents []string `json:"opponents"`
		Net       net      `json:"net"`
		Seed      int      `json:"seed"`
	}
	saved := []byte(`{ "opponents": [ "random", "valuer" ],
	  "net": { "width": 8 }, "seed": 3 }`)
	if err := compareSettings("run", saved, opts{[]string{"random", "valuer"}, net{8}, 3}); err != nil {
		t.Errorf("the same settings, saved with spaces: %v", err)
	}
	err := compareSettings("run", saved, opts{[]string{"random", "shipper"}, net{8}, 3})
	if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "opponents (--opponents)") {
		t.Errorf("another opponent: %v, want ErrResumeMismatch naming opponents", err)
	}
}

// TestResumeMismatchNamesTheFlagsThatMayChange: the refusal lists the flags that may change
// when resuming, comma-separated, by their command-line names.
func TestResumeMismatchNamesTheFlagsThatMayChange(t *testing.T) {
	type opts struct {
		Batch int `json:"batch"`
		Steps int `json:"steps"`
	}
	for _, c := range []struct {
		may  []string
		want string
	}{
		{[]string{"steps"}, "only --steps may change"},
		{[]string{"steps", "log_every", "eval_games"}, "only --steps, --log-every, --eval-games may change"},
	} {
		err := compareSettings("run", []byte(`{"batch":1,"steps":5}`), opts{2, 9}, c.may...)
		if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "was started with batch (--batch) 1, this command gives 2; "+c.want) {
			t.Errorf("may change %v: %v, want %q", c.may, err, c.want)
		}
	}
}
