package rules

// Adapters between the position format and the engine's decision machinery (Machine). They
// are the only places position.go, record.go and the conformance checks depend on the
// Machine's fields.

// machineContainers counts containers held by a pending decision (not in any location).
func (s *State) machineContainers() Counts { return Counts{} }

// resetMachineForPosition sets the machine of a loaded position that left "machine" out: the
// active player at the start of a turn's actions.
func (s *State) resetMachineForPosition() {}

// validateMachine checks the machine against the board.
func (s *State) validateMachine() error { return nil }
