package rules

// The game's pieces by option: how many containers, factories and warehouses exist
// (the rulebook tables, or the options' overrides) and how many Bank-lot auctions may run at
// once. Setup fills the supplies from these, and position validation counts against them.

// containersPerColour returns the supply of each normal colour and of gold.
func (o *Options) containersPerColour() (normal, gold int) {
	n := o.Players - 3
	if o.Modules.Has(Luxury) {
		// More Containers table (Luxury): other colours by length, gold by player count. The
		// "extended, 5 players: 13" entry is kept as printed (CLARIFICATIONS).
		normal = [3][3]int{{9, 11, 13}, {8, 9, 10}, {11, 14, 13}}[o.Length][n] // [standard, short, extended][players-3]
		gold = [3]int{8, 9, 10}[n]
	} else {
		normal = [3][3]int{{11, 14, 17}, {9, 11, 13}, {12, 16, 20}}[o.Length][n]
	}
	if o.ContainersPerColour != 0 {
		normal = o.ContainersPerColour
	}
	if o.GoldContainers != 0 {
		gold = o.GoldContainers
	}
	return normal, gold
}

// containerTotals is the number of containers of each colour in the game (gold only with
// Luxury Containers). The options must be valid (NewGame, Options.Validate).
func (o *Options) containerTotals() [NumColours]int {
	var t [NumColours]int
	normal, gold := o.containersPerColour()
	for c := 0; c < NumNormalColours; c++ {
		t[c] = normal
	}
	if o.Modules.Has(Luxury) {
		t[Gold] = gold
	}
	return t
}

// warehouses is the number of warehouses in the game.
func (o *Options) warehouses() int {
	if o.Warehouses != 0 {
		return o.Warehouses
	}
	return 4 * o.Players
}

// factoriesPerColour is the number of factories of each normal colour in the game.
func (o *Options) factoriesPerColour() int {
	if o.FactoriesPerColour != 0 {
		return o.FactoriesPerColour
	}
	return o.Players - 1
}

// auctionTokens is the number of Bank-lot auctions that may run at once.
func (o *Options) auctionTokens() int {
	if o.Players == 5 {
		return 2
	}
	return 1
}
