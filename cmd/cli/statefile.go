package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/container-rl/container/env/rules"
)

// loadStateFile reads a position (container-position/1 JSON), a JSON game record
// (container-game/1) or a binary game record, and returns the position it describes (a
// record's final position) and the record (nil for a position).
func loadStateFile(path string) (*rules.State, *rules.Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if bytes.HasPrefix(data, []byte("CTNR")) {
		var r rules.Record
		if err := r.UnmarshalBinary(data); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		s, err := r.Replay(nil)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return s, &r, nil
	}
	var head struct {
		Format string `json:"format"`
	}
	_ = json.Unmarshal(data, &head)
	if head.Format == rules.RecordFormat {
		r, s, err := rules.LoadRecord(data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return s, r, nil
	}
	s, err := rules.LoadPosition(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil, nil
}
