package datasets

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// GameActions returns game id's row of the games table and its action ids in step order,
// reading only the shard that holds the game and only the columns needed (Parquet shards
// decode nothing else). Replaying the game's options and seed with these actions rebuilds
// it (the replay viewer of `container serve` does).
func (d *Dataset) GameActions(id uint64) (*Game, []int32, error) {
	m := d.Manifest
	if m.GamesPerShard <= 0 || id >= uint64(m.Games) {
		return nil, nil, fmt.Errorf("%w: the dataset has games 0..%d; there is no game %d", ErrInvalid, m.Games-1, id)
	}
	k := int(id / uint64(m.GamesPerShard))
	if !m.HasShard(k) {
		return nil, nil, fmt.Errorf("%w: game %d is in shard %d, which is not written yet", ErrInvalid, id, k)
	}
	sub := *d
	man := *m
	for _, s := range m.Shards {
		if s.Index == k {
			man.Shards = []ShardInfo{s}
		}
	}
	sub.Manifest = &man
	var game *Game
	for g, err := range sub.Games() {
		if err != nil {
			return nil, nil, err
		}
		if g.GameID == id {
			game = g
			break
		}
	}
	if game == nil {
		return nil, nil, fmt.Errorf("%w: game %d is not in shard %d", ErrCorrupt, id, k)
	}
	actions := make([]int32, 0, game.Length)
	for rec, err := range sub.StepRecords(ColGameID, ColStep, ColAction) {
		if err != nil {
			return nil, nil, err
		}
		r := columns{rec: rec}
		ids := get[*array.Uint64](&r, ColGameID)
		steps := get[*array.Int32](&r, ColStep)
		acts := get[*array.Int32](&r, ColAction)
		if r.err != nil {
			return nil, nil, r.err
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if ids.Value(i) != id {
				continue
			}
			if int(steps.Value(i)) != len(actions) {
				return nil, nil, fmt.Errorf("%w: game %d: step %d is its row %d (rows out of order)", ErrCorrupt, id, steps.Value(i), len(actions))
			}
			actions = append(actions, acts.Value(i))
		}
	}
	if len(actions) != int(game.Length) {
		return nil, nil, fmt.Errorf("%w: game %d has %d steps, its games row says %d", ErrCorrupt, id, len(actions), game.Length)
	}
	return game, actions, nil
}
