package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/container-rl/container/datasets"
	"github.com/container-rl/container/datasets/selfplay"
	"github.com/spf13/cobra"
)

func newDatasetMergeCmd() *cobra.Command {
	var copyFiles bool
	cmd := &cobra.Command{
		Use:   "merge OUT SHARD_DIR...",
		Short: "Join the parts of a sharded self-play run (selfplay --shard) into one dataset",
		Long: `Join the directories written by selfplay --shard I/N (or any datasets of the same plan) into
one dataset in OUT whose manifest lists every shard of the run. The parts must share every
setting (format, compression, seed, games, shard size, agents, rules options, encoding,
reward, policy columns, tool version); every shard of the plan must be in exactly one of them
(missing or duplicated game ranges are named, with the part that should hold them); and every
file must match the size and SHA-256 its part's manifest records.

Without --copy the parts must lie inside OUT (as selfplay --shard --out OUT leaves them) and
only OUT/manifest.json is written: it names each file in its part's directory. With --copy the
files are copied into OUT (verified as they are copied) and OUT stands alone. The merged data
is the same as one run with the same flags would have written (except games.duration_us).`,
		Example: `  container dataset merge runs/big runs/big/shard-*
  container dataset merge --copy /data/merged /scratch/big/shard-*`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDatasetMerge(args[0], args[1:], copyFiles, cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&copyFiles, "copy", false, "copy the shard files into OUT instead of writing a manifest that points into the part directories")
	return cmd
}

func runDatasetMerge(out string, dirs []string, copyFiles bool, w io.Writer) error {
	m, err := datasets.Merge(out, dirs, datasets.MergeOptions{Copy: copyFiles})
	if err != nil {
		return err
	}
	games, steps := m.GamesDone()
	how := "manifest only"
	if copyFiles {
		how = "files copied"
	}
	fmt.Fprintf(w, "%s: %d games (%d steps) in %d shards from %d parts (%s), %s/%s, seed %d, agents %s\n",
		out, games, steps, len(m.Shards), len(dirs), how, m.Format, m.Compression, m.Seed, strings.Join(m.Agents, ","))
	return nil
}

// printPartNote tells a selfplay --shard run which games its part holds.
func printPartNote(w io.Writer, c selfplay.Config, m *datasets.Manifest) {
	if c.Part == nil {
		return
	}
	first, end := m.OwnedGames()
	if first == end {
		fmt.Fprintf(w, "part %s holds no games: the run has only %d shards of %d games for %d parts\n", c.Part, m.NumShards(), m.GamesPerShard, c.Part.Count)
		return
	}
	fmt.Fprintf(w, "part %s: games [%d,%d) of %d; join the parts with container dataset merge\n", c.Part, first, end, m.Games)
}
