package training

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
)

// writeMetrics writes RUN/metrics.csv and RUN/metrics.json (a list of objects) atomically.
func writeMetrics(dir string, names []string, rows [][]float64) error {
	var csv bytes.Buffer
	for i, n := range names {
		if i > 0 {
			csv.WriteByte(',')
		}
		csv.WriteString(n)
	}
	csv.WriteByte('\n')
	objs := make([]map[string]float64, 0, len(rows))
	for _, r := range rows {
		obj := make(map[string]float64, len(names))
		for i, v := range r {
			if i > 0 {
				csv.WriteByte(',')
			}
			csv.WriteString(strconv.FormatFloat(v, 'g', 8, 64))
			if i < len(names) {
				obj[names[i]] = v
			}
		}
		csv.WriteByte('\n')
		objs = append(objs, obj)
	}
	js, err := json.MarshalIndent(objs, "", " ")
	if err != nil {
		return fmt.Errorf("training: metrics: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "metrics.csv"), csv.Bytes()); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "metrics.json"), append(js, '\n'))
}
