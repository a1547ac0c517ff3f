package env_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/container-rl/container/env"
	"github.com/container-rl/container/env/rules"
)

// A random 4-player game: the env says who decides, a uniformly random legal action is
// played for that seat, and the final rewards arrive on the last step.
func Example() {
	e, err := env.New(env.Options{Rules: rules.Options{Players: 4}, Reward: env.WinLoss})
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	obs, _ := e.Reset(1)
	for !e.Done() {
		legal := e.Legal() // the decider's legal action ids (also e.Mask())
		res, err := e.Step(legal[rng.IntN(len(legal))])
		if err != nil {
			panic(err)
		}
		obs = res.Obs
	}
	sum := float32(0)
	for _, r := range e.CumulativeRewards() {
		sum += r
	}
	fmt.Println(len(obs) == e.ObsSize(), e.Agent(), sum)
	// Output: true -1 1
}
