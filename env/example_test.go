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

// Sixteen games in lockstep on two workers: one batched policy call per step reads the
// contiguous [N x D] observations and [N x A] masks; finished games restart by themselves.
func ExampleNewVec() {
	v, err := env.NewVec(16, env.DefaultOptions(), 7, 2)
	if err != nil {
		panic(err)
	}
	defer v.Close()
	fmt.Println(len(v.Obs) == v.N*v.D, len(v.Mask) == v.N*v.A, v.A == env.NumActions())
	actions := make([]int, v.N)
	for step := 0; step < 100; step++ {
		for i := range actions { // a stand-in policy: the first legal id of each game
			row := v.Mask[i*v.A : (i+1)*v.A]
			for id, m := range row {
				if m == 1 {
					actions[i] = id
					break
				}
			}
		}
		if err := v.Step(actions); err != nil {
			panic(err)
		}
	}
	fmt.Println(v.State(0).Steps > 0)
	// Output:
	// true true true
	// true
}
