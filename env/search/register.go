package search

import (
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
)

func init() {
	d := DefaultConfig()
	err := bots.RegisterParams(Name,
		"Information Set MCTS from its own view (determinized hidden cards and bids); "+
			"ismcts:sims=N|ms=N,workers=N,rollout=random|manufacturer|shipper|valuer,depth=N,c=X,net=default|FILE.bot,value=default|value-4p|FILE.bot,leaf=value|rollout|mix,mix=X,explore=TURNS (default "+d.String()+")",
		func(params string) error { _, err := Parse(params); return err },
		func(params string, opts rules.Options, seed uint64) (bots.Bot, error) {
			cfg, err := Parse(params)
			if err != nil {
				return nil, err
			}
			return New(cfg, opts, seed)
		})
	if err != nil {
		panic(err)
	}
}
