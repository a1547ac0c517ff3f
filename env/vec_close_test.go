package env

import (
	"bytes"
	"runtime"
	"testing"
	"time"
)

// vecHelpers counts the goroutines a VecEnv started (its helpers), running or not yet started.
func vecHelpers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("created by github.com/container-rl/container/env.newVec "))
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Close must end every helper goroutine, whether it is polling for the next step or asleep:
// a helper that keeps spinning after Close burns a core for the rest of the process.
func TestVecCloseEndsEveryHelperGoroutine(t *testing.T) {
	before := vecHelpers()
	v, err := NewVec(8, DefaultOptions(), 7, 4)
	if err != nil {
		t.Fatal(err)
	}
	// Its 3 helpers run until Close (helpers of VecEnvs closed earlier may still be exiting,
	// so only count down from before).
	if got := vecHelpers(); got < 3 {
		v.Close()
		t.Fatalf("%d helper goroutines for 4 workers; want 3", got)
	}
	var a []int
	for step := 0; step < 40; step++ {
		a = vecActions(v, step, a)
		if err := v.Step(a); err != nil {
			t.Fatal(err)
		}
	}
	v.Close()
	deadline := time.Now().Add(5 * time.Second)
	for vecHelpers() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d helper goroutines still running 5 s after Close", vecHelpers()-before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
