package cli

import (
	"fmt"

	"github.com/container-rl/container/env/rules"
)

// parseGameFlags sets o's variant, length and modules from the values of the --rules,
// --length and --modules flags every game-playing command has; the error names the flag.
func parseGameFlags(o *rules.Options, variant, length, modules string) error {
	var err error
	if o.Variant, err = rules.ParseVariant(variant); err != nil {
		return fmt.Errorf("--rules: %w", err)
	}
	if o.Length, err = rules.ParseLength(length); err != nil {
		return fmt.Errorf("--length: %w", err)
	}
	if o.Modules, err = rules.ParseModules(modules); err != nil {
		return fmt.Errorf("--modules: %w", err)
	}
	return nil
}
