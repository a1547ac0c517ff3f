package training

import (
	"os"
	"path/filepath"
)

// ExportRun builds a bot file from a run's latest checkpoint.
func ExportRun(run, name, notes string) (*BotFile, error) {
	w, info, err := WeightsFromRun(run)
	if err != nil {
		return nil, err
	}
	ti := TrainingInfo{Run: filepath.Base(run), Method: info.Method, Steps: info.Step, Seconds: info.Seconds, Notes: notes}
	if cmd, err := os.ReadFile(filepath.Join(run, "command.txt")); err == nil && len(cmd) < 1<<16 {
		ti.Commands = append(ti.Commands, string(cmd))
	}
	return &BotFile{Header: BotHeader{Name: name, Net: w.Config, EncodingVersion: info.EncodingVersion, Actions: CurrentActionLayout(),
		Rules: info.Rules, Training: ti}, Weights: w}, nil
}
