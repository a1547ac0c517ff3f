package training

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
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

func TestCompareSettingsSeesASettingTurnedOff(t *testing.T) {
	type opts struct {
		Steps int    `json:"steps"`
		Hide  bool   `json:"hide_opponent_cash,omitempty"`
		Seed  uint64 `json:"seed"`
	}
	saved := []byte(`{"steps": 10, "hide_opponent_cash": true}`)
	err := compareSettings("run", saved, opts{Steps: 20}, "steps")
	if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--hide-opponent-cash") {
		t.Fatalf("turning --hide-opponent-cash off on resume: %v", err)
	}
	if err := compareSettings("run", saved, opts{Steps: 20, Hide: true}, "steps"); err != nil {
		t.Fatalf("only steps changed: %v", err)
	}
	// A setting the run did not record (an earlier build) is not compared.
	if err := compareSettings("run", saved, opts{Steps: 20, Hide: true, Seed: 7}, "steps"); err != nil {
		t.Fatalf("legacy run: %v", err)
	}
}

// An optional setting (recorded only when set, or by builds that predate it) that a run was
// started without may not be turned on when resuming: a saved run without the key, or with
// its zero value, counts as started without it. Leaving it out, or giving its zero value,
// resumes such a run.
func TestResumeRefusesTurningOnASettingTheRunWasStartedWithout(t *testing.T) {
	type opts struct {
		Generations int64  `json:"generations"`
		Rollout     string `json:"rollout"`
		Expert      string `json:"expert"`
		MaxSteps    int    `json:"max_steps,omitempty"`
		Hide        bool   `json:"hide_opponent_cash,omitempty"`
	}
	for _, c := range []struct {
		saved string
		given opts
		flag  string // "": accepted
	}{
		{`{"generations":1}`, opts{Generations: 2}, ""},
		{`{"generations":1,"rollout":"","expert":""}`, opts{Generations: 2}, ""},
		{`{"generations":1}`, opts{Generations: 2, Rollout: "valuer"}, "--rollout"},
		{`{"generations":1,"rollout":""}`, opts{Generations: 2, Rollout: "valuer"}, "--rollout"},
		{`{"generations":1,"rollout":"valuer"}`, opts{Generations: 2}, "--rollout"},
		{`{"generations":1,"rollout":"valuer"}`, opts{Generations: 2, Rollout: "valuer"}, ""},
		{`{"generations":1}`, opts{Generations: 2, Expert: "ismcts"}, "--expert"},
		{`{"generations":1}`, opts{Generations: 2, MaxSteps: 50}, "--max-steps"},
		{`{"generations":1}`, opts{Generations: 2, Hide: true}, "--hide-opponent-cash"},
		{`{"generations":1,"max_steps":50}`, opts{Generations: 2}, "--max-steps"},
	} {
		err := compareSettings("run", []byte(c.saved), c.given, "generations")
		if c.flag == "" {
			if err != nil {
				t.Fatalf("%s resumed with %+v: %v", c.saved, c.given, err)
			}
			continue
		}
		if !errors.Is(err, ErrResumeMismatch) {
			t.Fatalf("%s resumed with %+v: %v", c.saved, c.given, err)
		}
		if !strings.Contains(err.Error(), c.flag) {
			t.Fatalf("%s resumed with %+v: %q does not name %s", c.saved, c.given, err, c.flag)
		}
	}
}

// The refusal lists the flags that may change as they are spelt on the command line.
func TestResumeRefusalNamesTheFlagsThatMayChangeWithDashes(t *testing.T) {
	type opts struct {
		Seed uint64 `json:"seed"`
	}
	err := compareSettings("run", []byte(`{"seed":1}`), opts{Seed: 2}, ExItMayChange...)
	if !errors.Is(err, ErrResumeMismatch) {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(err.Error(), "only --generations, --workers, --keep-buffer may change") {
		t.Fatalf("%q does not list the flags that may change", err)
	}
	if strings.Contains(err.Error(), "keep_buffer") {
		t.Fatalf("%q spells a flag as its JSON key", err)
	}
}

// A train exit run started without a rollout policy records that in run.json and in its
// checkpoint, and a resume that names one is refused (the buffer would mix two searches'
// targets) without touching the run.
func TestExItResumeWithARolloutTheRunWasStartedWithoutIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("plays search games")
	}
	o := tinyExIt(t)
	o.Generations, o.GateEvery = 1, 0
	if _, err := TrainExIt(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(o.Out, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var saved map[string]any
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatal(err)
	}
	if _, ok := saved["rollout"]; !ok {
		t.Fatalf("run.json has no rollout: %s", b)
	}
	if saved["rollout"] != "" {
		t.Fatalf("run.json rollout %v, want \"\"", saved["rollout"])
	}
	before, err := os.ReadFile(filepath.Join(o.Out, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}

	o2 := o
	o2.Generations, o2.Rollout = 2, "valuer"
	_, err = TrainExIt(context.Background(), o2)
	if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "--rollout") {
		t.Fatalf("%v", err)
	}
	after, err := os.ReadFile(filepath.Join(o.Out, CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the refused resume changed the checkpoint")
	}
}
