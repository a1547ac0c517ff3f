package training

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMetricsFilesHoldEveryRowByColumnName: metrics.csv has the column names and one line
// per row; metrics.json has one object per row keyed by the column names. A row with more
// values than names (a checkpoint from a build that logged more columns) keeps every value in
// the CSV and its named ones in the JSON.
func TestMetricsFilesHoldEveryRowByColumnName(t *testing.T) {
	dir := t.TempDir()
	names := []string{"step", "loss"}
	if err := writeMetrics(dir, names, [][]float64{{1, 0.5}, {2, 0.25, 9}}); err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(csv), "step,loss\n1,0.5\n2,0.25,9\n"; got != want {
		t.Errorf("metrics.csv %q, want %q", got, want)
	}
	js, err := os.ReadFile(filepath.Join(dir, "metrics.json"))
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]float64
	if err := json.Unmarshal(js, &objs); err != nil || !strings.HasSuffix(string(js), "\n") {
		t.Fatalf("metrics.json %q: %v", js, err)
	}
	want := []map[string]float64{{"step": 1, "loss": 0.5}, {"step": 2, "loss": 0.25}}
	if !reflect.DeepEqual(objs, want) {
		t.Errorf("metrics.json rows %v, want %v", objs, want)
	}
}
