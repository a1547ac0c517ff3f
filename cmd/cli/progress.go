package cli

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// gamesBar is the progress bar of a command that plays total games: count, predicted time,
// redrawn at most every 250 ms, cleared when done; more options are applied after these.
func gamesBar(w io.Writer, total int, desc string, more ...progressbar.Option) *progressbar.ProgressBar {
	opts := append([]progressbar.Option{progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(250 * time.Millisecond), progressbar.OptionClearOnFinish()}, more...)
	return progressbar.NewOptions(total, opts...)
}
