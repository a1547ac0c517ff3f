//go:build !unix

package training

import "time"

func processCPU() time.Duration { return 0 }
