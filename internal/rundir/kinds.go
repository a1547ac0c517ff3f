package rundir

// The kinds of directory the commands write. docs/FILES.md is the table of them; keep it in
// step with these lists.
var (
	// Selfplay is a dataset directory (container selfplay --out).
	Selfplay = &Kind{
		Name:    "selfplay",
		Command: "container selfplay",
		Files: []string{"manifest.json", "steps-*.arrow", "games-*.arrow", "steps-*.parquet", "games-*.parquet",
			".selfplay.lock"}, // the lock file of builds before rundir
		Legacy: func(dir string) bool { return FileContains(dir, "manifest.json", `"manifest_version"`) },
	}
	// TrainBC is a behaviour-cloning run directory (container train bc --out).
	TrainBC = &Kind{
		Name:    "train-bc",
		Command: "container train bc",
		Files:   []string{"checkpoint.ckpt", "run.json", "metrics.csv", "metrics.json"},
		Legacy:  legacyCheckpoint("bc"),
	}
	// TrainPPO is a PPO run directory (container train ppo --out).
	TrainPPO = &Kind{
		Name:    "train-ppo",
		Command: "container train ppo",
		Files:   []string{"checkpoint.ckpt", "run.json", "metrics.csv", "metrics.json", "pool", "pool/iter-*.bot"},
		Legacy:  legacyCheckpoint("ppo"),
	}
	// TrainExIt is a search-guided training run directory (container train exit --out): the
	// checkpoint and metrics, every generation's network and the replay buffer, one selfplay
	// dataset directory per generation (buffer/gen-NNNNNN, of kind Selfplay).
	TrainExIt = &Kind{
		Name:    "train-exit",
		Command: "container train exit",
		Files: []string{"checkpoint.ckpt", "run.json", "metrics.csv", "metrics.json", "nets", "nets/gen-*.bot",
			"buffer", "buffer/gen-*"},
		Legacy: legacyCheckpoint("exit"),
	}
	// EvalGames is a directory of saved games (container eval --save). A directory of game
	// files saved before markers existed is not taken as proof: eval --save replaces the
	// game files of its directory, and such a directory may hold games collected by hand.
	EvalGames = &Kind{
		Name:    "eval-games",
		Command: "container eval --save",
		Files:   []string{"game-*.json"},
	}
	// Demo is the demo's output directory (container demo --out); its dataset and training
	// run are directories of their own kinds inside it.
	Demo = &Kind{
		Name:    "demo",
		Command: "container demo",
		Files:   []string{"dataset", "train", "demo.bot", "eval.csv"},
		Legacy:  func(dir string) bool { return FileHasPrefix(dir, "demo.bot", BotMagic) },
	}
)

// Magic numbers of the training package's files (training/fileformat.go), so that legacy
// directories and single-file outputs are recognised without importing it.
const (
	BotMagic        = "CNTRBOT1"
	CheckpointMagic = "CNTRCKP1"
)

// legacyCheckpoint recognises a run directory of a build before markers by its checkpoint:
// the magic, then the JSON header naming the method.
func legacyCheckpoint(method string) func(string) bool {
	return func(dir string) bool {
		return FileHasPrefix(dir, "checkpoint.ckpt", CheckpointMagic) &&
			FileContains(dir, "checkpoint.ckpt", `"method":"`+method+`"`)
	}
}
