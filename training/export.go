package training

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// ExportRun builds a bot file from a run's latest checkpoint, or re-labels an existing bot
// file (such as a PPO pool snapshot, RUN/pool/iter-N.bot) when run ends in ".bot".
func ExportRun(run, name, notes string) (*BotFile, error) {
	if strings.HasSuffix(run, ".bot") {
		b, err := ReadBotFile(run)
		if err != nil {
			return nil, err
		}
		b.Header.Name = name
		if notes != "" {
			b.Header.Training.Notes = notes
		}
		return b, nil
	}
	w, info, err := WeightsFromRun(run)
	if err != nil {
		return nil, err
	}
	ti := TrainingInfo{Run: filepath.Base(run), Method: info.Method, Steps: info.Step, Seconds: info.Seconds, Notes: notes}
	if cmd, err := os.ReadFile(filepath.Join(run, "command.txt")); err == nil && len(cmd) < 1<<16 {
		ti.Commands = append(ti.Commands, string(cmd))
	}
	return newBotFile(name, info.EncodingVersion, info.Rules, w, ti), nil
}

// newBotFile wraps weights as a bot file for this build's action space: a network reading
// the given observation version, trained for opts.
func newBotFile(name, encodingVersion string, opts rules.Options, w *Weights, ti TrainingInfo) *BotFile {
	return &BotFile{Header: BotHeader{Name: name, Net: w.Config, EncodingVersion: encodingVersion, Actions: CurrentActionLayout(),
		Rules: opts, Training: ti}, Weights: w}
}
