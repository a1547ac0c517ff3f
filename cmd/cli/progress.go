package cli

import (
	"io"

	"github.com/container-rl/container/internal/progress"
)

// gamesBar reports the progress of a command that plays total games (internal/progress: a bar
// on a terminal, an occasional plain line in a log, nothing before the first game); the bar
// is cleared from a terminal when done. Call Finish when every game is played, Close when the
// command stops early.
func gamesBar(w io.Writer, total int, desc string) *progress.Bar {
	return progress.New(w, int64(total), desc, progress.Options{Clear: true})
}
