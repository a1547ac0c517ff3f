package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/internal/strictjson"
)

// Results files on disk: what they hold is checked twice before a merge trusts it. A
// checksum (as dataset manifests have) catches a file edited or damaged after it was
// written; cross-checks of every game (its seed and seats are the tournament's, every
// seat's total is the sum of its parts, ranks and winners follow from the totals) catch
// an edit that recomputed the checksum but not the rest. Neither proves the games were
// played: only playing them again does (same seeds, same bots).

// ErrNoChecksum is wrapped when a results file was written before results files carried a
// checksum (format container-eval-results/1); UpgradeResultsFile checks such a file and
// gives it one.
var ErrNoChecksum = fmt.Errorf("%w: written before results files carried a checksum", ErrMerge)

// maxResultsFile bounds the size of a results file read (a one-shard tournament of a million
// games is about 1 GB).
const maxResultsFile = 4 << 30

// resultsSum is the hex SHA-256 of a results file's canonical JSON: the file decoded as
// plain JSON (numbers kept as written), its "checksum" member removed, and encoded again
// (object keys sorted, no spaces). It does not depend on this build's Go types, so adding
// a field to the options or scores later leaves old checksums valid, and it survives
// reformatting (a pretty-printer) but not an edit of any value.
func resultsSum(data []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", errors.New("not a JSON object")
	}
	delete(m, "checksum")
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// Marshal returns f as a results file of this build: format ResultsFormat, with its
// checksum, and a final newline.
func (f *ResultsFile) Marshal() ([]byte, error) {
	c := *f
	c.Format, c.Checksum = ResultsFormat, ""
	b, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("eval: results file: %w", err)
	}
	if c.Checksum, err = resultsSum(b); err != nil {
		return nil, fmt.Errorf("eval: results file: %w", err)
	}
	if b, err = json.Marshal(&c); err != nil {
		return nil, fmt.Errorf("eval: results file: %w", err)
	}
	return append(b, '\n'), nil
}

// decodeResults decodes a results file strictly (keys spelt exactly, none twice, none
// unknown) without checking it.
func decodeResults(data []byte) (*ResultsFile, error) {
	f := &ResultsFile{}
	if err := strictjson.Decode(data, f); err != nil {
		return nil, fmt.Errorf("%w: not a results file: %v", ErrMerge, err)
	}
	return f, nil
}

// ParseResultsFile decodes a results file and checks it: its checksum, then Validate (the
// shard's range and every game's seed, seats, totals, ranks and winners). A file of format
// container-eval-results/1 wraps ErrNoChecksum.
func ParseResultsFile(data []byte) (*ResultsFile, error) {
	f, err := decodeResults(data)
	if err != nil {
		return nil, err
	}
	switch f.Format {
	case ResultsFormatV1:
		return nil, fmt.Errorf("%w (format %s); check it and add one with --merge --upgrade-results (docs/SCALE.md)", ErrNoChecksum, ResultsFormatV1)
	case ResultsFormat:
		if f.Checksum == "" {
			return nil, fmt.Errorf("%w: no checksum (format %s has one)", ErrMerge, ResultsFormat)
		}
		sum, err := resultsSum(data)
		if err != nil || sum != f.Checksum {
			return nil, fmt.Errorf("%w: checksum mismatch: the file was edited or damaged after it was written", ErrMerge)
		}
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// UpgradeResultsFile reads a results file of format container-eval-results/1 (which has no
// checksum) with every check of Validate, and returns it ready to be written again with
// Marshal (upgraded true). A file of this build's format is parsed as ParseResultsFile does
// (upgraded false).
func UpgradeResultsFile(data []byte) (f *ResultsFile, upgraded bool, err error) {
	f, err = decodeResults(data)
	if err != nil {
		return nil, false, err
	}
	if f.Format != ResultsFormatV1 {
		f, err = ParseResultsFile(data)
		return f, false, err
	}
	if f.Checksum != "" {
		return nil, false, fmt.Errorf("%w: format %s with a checksum, which that format never had", ErrMerge, ResultsFormatV1)
	}
	if err := f.Validate(); err != nil {
		return nil, false, err
	}
	f.Format = ResultsFormat
	return f, true, nil
}

// readResults reads the file at path: a regular file (a named pipe or device would block or
// never end) of at most maxResultsFile bytes.
func readResults(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrMerge, path)
	}
	r, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, maxResultsFile+1))
	if err != nil {
		return nil, fmt.Errorf("eval: %s: %w", path, err)
	}
	if len(b) > maxResultsFile {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrMerge, path, maxResultsFile)
	}
	return b, nil
}

// ReadResultsFile reads and checks a results file (ParseResultsFile); errors name the file.
func ReadResultsFile(path string) (*ResultsFile, error) {
	b, err := readResults(path)
	if err != nil {
		return nil, err
	}
	f, err := ParseResultsFile(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// ReadResultsFileForUpgrade is ReadResultsFile through UpgradeResultsFile.
func ReadResultsFileForUpgrade(path string) (f *ResultsFile, upgraded bool, err error) {
	b, err := readResults(path)
	if err != nil {
		return nil, false, err
	}
	f, upgraded, err = UpgradeResultsFile(b)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return f, upgraded, nil
}

// checkScores checks one game's final scoring is self-consistent as rules.State.Scores makes
// it: every total is cash + island + leftover + loans, and rank is 1 + the seats strictly
// ahead (a higher total, or an equal total and more containers in the factory district),
// with Winner set exactly for rank 1.
func checkScores(g GameResult) error {
	switch {
	case g.Steps < 1 || g.Turns < 1:
		return fmt.Errorf("%d steps and %d turns", g.Steps, g.Turns)
	case g.EndReason != rules.EndTwoColours && g.EndReason != rules.EndTurnLimit:
		return fmt.Errorf("end reason %d is not an end of the game", g.EndReason)
	}
	for i, s := range g.Scores {
		if sum := s.Cash + s.Island + s.Leftover + s.Loans; s.Total != sum {
			return fmt.Errorf("seat %d's total %d is not cash %d + island %d + leftover %d + loans %d = %d", i, s.Total, s.Cash, s.Island, s.Leftover, s.Loans, sum)
		}
		ahead := 0
		for _, o := range g.Scores {
			if o.Total > s.Total || (o.Total == s.Total && o.FactoryContainers > s.FactoryContainers) {
				ahead++
			}
		}
		if s.Rank != ahead+1 {
			return fmt.Errorf("seat %d has rank %d; its total %d ranks it %d", i, s.Rank, s.Total, ahead+1)
		}
		if s.Winner != (ahead == 0) {
			return fmt.Errorf("seat %d's winner flag is %v with rank %d", i, s.Winner, ahead+1)
		}
	}
	return nil
}
