package training

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-rl/container/datasets"
)

// A train exit run killed in the middle of a generation's self-play, whose directory is then
// moved (or copied to another machine, or mounted elsewhere), resumes from its new place and
// ends as a run never interrupted: the buffer names the network relative to the run directory.
// A buffer begun by an earlier build, which named the network by its absolute path, resumes
// after a move too.
func TestExItResumesAfterTheRunDirectoryMoved(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a dozen short search games")
	}
	straight := tinyExIt(t)
	want, err := TrainExIt(context.Background(), straight)
	if err != nil {
		t.Fatal(err)
	}
	for _, earlierBuild := range []bool{false, true} {
		killed := tinyExIt(t)
		killed.Workers = 1
		ctx, cancel := context.WithCancel(context.Background())
		killed.onGame = func(gen int64, games int) {
			if gen == 2 && games == 1 {
				cancel()
			}
		}
		if _, err := TrainExIt(ctx, killed); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled run: %v, want context.Canceled", err)
		}
		buf := filepath.Join(killed.Out, "buffer", "gen-000002")
		m, err := datasets.ReadManifest(buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range m.Agents {
			if !strings.HasSuffix(a, ",net=nets/gen-000001.bot") && !strings.HasSuffix(a, ",net=nets/gen-000000.bot") {
				t.Fatalf("buffer agent %q does not name its network relative to the run directory", a)
			}
		}
		if earlierBuild {
			abs, _ := filepath.Abs(killed.Out)
			for i, a := range m.Agents {
				m.Agents[i] = strings.Replace(a, ",net=nets/", ",net="+abs+"/nets/", 1)
			}
			if err := datasets.WriteManifest(buf, m); err != nil {
				t.Fatal(err)
			}
		}
		moved := filepath.Join(t.TempDir(), "moved-run")
		if err := os.Rename(killed.Out, moved); err != nil {
			t.Fatal(err)
		}
		killed.Out, killed.onGame = moved, nil
		got, err := TrainExIt(context.Background(), killed)
		if err != nil {
			t.Fatalf("earlier build %v: resuming the moved run: %v", earlierBuild, err)
		}
		if !got.Resumed || got.Best != want.Best {
			t.Fatalf("earlier build %v: resumed %v, best %s; want a resumed run with best %s", earlierBuild, got.Resumed, got.Best, want.Best)
		}
		requireSameWeights(t, straight.Out, moved)
		for _, g := range []string{"gen-000001.bot", "gen-000002.bot"} {
			a, _ := os.ReadFile(filepath.Join(straight.Out, "nets", g))
			b, _ := os.ReadFile(filepath.Join(moved, "nets", g))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Fatalf("earlier build %v: nets/%s differs between the moved run and the uninterrupted one", earlierBuild, g)
			}
		}
	}
}
