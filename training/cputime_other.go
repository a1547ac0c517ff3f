//go:build !unix

package training

import "time"

// processCPU is 0 where the process's CPU time cannot be read.
func processCPU() time.Duration { return 0 }
