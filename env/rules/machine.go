package rules

// Machine is the decision machinery of a State. The engine owns its fields.
type Machine struct{}
