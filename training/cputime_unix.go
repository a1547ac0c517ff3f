//go:build unix

package training

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used (user + system), so measurements can
// report throughput per CPU-second, which a machine shared with other jobs distorts less
// than wall-clock throughput. 0 where it cannot be read.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
