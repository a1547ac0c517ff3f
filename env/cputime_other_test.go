//go:build !unix

package env

import "time"

func processCPU() time.Duration { return 0 }
