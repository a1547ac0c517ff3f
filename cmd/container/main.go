// Command container is the Container reinforcement-learning toolkit's command line.
package main

import (
	"os"

	"github.com/container-rl/container/cmd/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
