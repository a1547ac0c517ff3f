package bridge

import "runtime"

func defaultWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }
