package training

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

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
			require.NoError(t, err, "%s resumed with %+v", c.saved, c.given)
			continue
		}
		require.True(t, errors.Is(err, ErrResumeMismatch), "%s resumed with %+v: %v", c.saved, c.given, err)
		require.Contains(t, err.Error(), c.flag, "%s resumed with %+v", c.saved, c.given)
	}
}

// The refusal lists the flags that may change as they are spelt on the command line.
func TestResumeRefusalNamesTheFlagsThatMayChangeWithDashes(t *testing.T) {
	type opts struct {
		Seed uint64 `json:"seed"`
	}
	err := compareSettings("run", []byte(`{"seed":1}`), opts{Seed: 2}, ExItMayChange...)
	require.True(t, errors.Is(err, ErrResumeMismatch), "%v", err)
	require.Contains(t, err.Error(), "only --generations, --workers, --keep-buffer may change")
	require.NotContains(t, err.Error(), "keep_buffer")
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
	_, err := TrainExIt(context.Background(), o)
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(o.Out, "run.json"))
	require.NoError(t, err)
	var saved map[string]any
	require.NoError(t, json.Unmarshal(b, &saved))
	require.Contains(t, saved, "rollout", "run.json: %s", b)
	require.Equal(t, "", saved["rollout"])
	before, err := os.ReadFile(filepath.Join(o.Out, CheckpointFile))
	require.NoError(t, err)

	o2 := o
	o2.Generations, o2.Rollout = 2, "valuer"
	_, err = TrainExIt(context.Background(), o2)
	require.True(t, errors.Is(err, ErrResumeMismatch), "%v", err)
	require.True(t, strings.Contains(err.Error(), "--rollout"), "%v", err)
	after, err := os.ReadFile(filepath.Join(o.Out, CheckpointFile))
	require.NoError(t, err)
	require.Equal(t, before, after, "the refused resume changed the checkpoint")
}
