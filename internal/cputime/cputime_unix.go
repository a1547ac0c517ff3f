//go:build unix

// Package cputime reads the CPU time this process has used, so measurements can report
// throughput per CPU-second, which a machine shared with other jobs distorts less than
// wall-clock throughput.
package cputime

import (
	"syscall"
	"time"
)

// Process is the CPU time (user + system) this process has used; 0 where it cannot be read.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
