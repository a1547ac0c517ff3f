//go:build !unix

// Package cputime reads the CPU time this process has used (0 on systems where it cannot).
package cputime

import "time"

// Process is 0 where the process's CPU time cannot be read.
func Process() time.Duration { return 0 }
