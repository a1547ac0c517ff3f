// Package datasets stores self-play rollouts as Apache Arrow data: a directory of shards, each
// a steps table (one row per decision) and a games table (one row per game), written as Arrow
// IPC files (optionally zstd or lz4 compressed) or Parquet files through pqarrow, plus a JSON
// manifest. docs/DATASETS.md (in the repository root) lists every column and metadata key.
//
// The package knows nothing of the rules, the encoding or the bots: writers take plain Step
// and Game records and a Meta that names the observation encoding, its features and the
// action names. Package selfplay (datasets/selfplay) plays games and feeds them in.
//
// # Writing
//
// NewShardWriter writes shard k under temporary names; WriteGame appends a whole game (its
// steps must already carry every seat's return-to-go, see ReturnsToGo); Close renames the
// files into place. The caller records the returned ShardInfo in the Manifest and saves it
// with WriteManifest (atomic). An interrupted run therefore leaves only whole shards listed,
// and a resumed run writes exactly the missing ones.
//
// # Reading
//
// Open checks the manifest and the observation encoding version: data recorded with an
// encoding that was neither registered (RegisterEncoding; importing datasets/selfplay
// registers the current one) nor passed to AcceptEncodings is refused with an error wrapping
// ErrEncodingVersion. Each file's size and SHA-256 are checked against the manifest before it
// is parsed, its schema metadata when it is opened and every record batch when it is read; a
// damaged or truncated file gives an error wrapping ErrCorrupt that names it.
//
//   - Dataset.StepBatches and Dataset.Games iterate over record batches / games in order.
//   - Dataset.Batches(n) streams the steps as training minibatches of n rows.
//   - Dataset.Load reads every step into a Replay; Replay.Sample(rng, n, &batch) draws uniform
//     random minibatches across all shards; Replay.Slice gives contiguous ranges.
//   - Dataset.NewSampler draws random minibatches from datasets too large to load, through a
//     pool of randomly chosen record batches / row groups that is refreshed after every draw.
//
// # Training batches
//
// A Batch holds B rows in contiguous row-major buffers, ready to wrap as tensors:
//
//	Obs      []float32 // [B*D]  observation of the decider, D = Meta.ObsDim
//	Mask     []bool    // [B*A]  legal actions, A = Meta.NumActions
//	Actions  []int32   // [B]    action taken
//	Returns  []float32 // [B*P]  return-to-go of every seat (absolute seats), P = Meta.Seats
//	Rewards  []float32 // [B]    the decider's reward at this step
//	Deciders []int32   // [B]    deciding seat (index into a Returns row)
//	Phases   []int32   // [B]    phase index (Meta.PhaseNames)
//	Done     []bool    // [B]    last decision of its game
//	GameIDs  []uint64  // [B]
//	Steps    []int32   // [B]    decision index in its game
//	Policy   []float32 // [B*A]  behaviour policy probabilities, only if Meta.Policy
//	Values   []float32 // [B]    behaviour value estimates, only if Meta.Value
//
// Batch.DeciderReturns picks each row's return for its own decider (the usual value and
// policy-gradient target). Buffers are reused from fill to fill, so a training loop that keeps
// one Batch allocates nothing per minibatch.
package datasets
