package bots

// Level is a playing strength for people choosing opponents: a registered alias
// (RegisterAlias) of a calibrated agent, with fallbacks for the options its first agent
// cannot play. Its description carries the measured numbers (docs/BOTS.md, "Levels").
type Level struct {
	Name        string
	Description string
	// Targets are tried in order (see RegisterAlias): the first is the level's agent where
	// it has a model for the game's options, the rest stand in elsewhere.
	Targets []string
}

// Levels are the named levels, weakest first. Each one's agent beats three of the level
// below it clearly (4 players, base rules; docs/BOTS.md "Levels" has the commands). The
// targets are names only: "default" is registered by the training package and "ismcts" by
// env/search, both linked into every program that plays games, so this package imports
// neither.
var Levels = []Level{
	{Name: "easy", Targets: []string{"shipper"},
		Description: "level 1 of 4: the shipper (a simple trading strategy); 4 players: rating mu 26.8, beats three random bots 93%; every option set"},
	{Name: "medium", Targets: []string{"valuer"},
		Description: "level 2 of 4: the valuer, the strongest scripted bot; 4 players: rating mu 34.0, beats three easy 100% (2000 games); every option set"},
	{Name: "hard", Targets: []string{DefaultName, "ismcts:sims=50"},
		Description: "level 3 of 4: the trained default network, no search; 4 players: rating mu 35.2, beats three medium 96.4% (2000 games); " +
			"ismcts:sims=50 where default has no model (beats three valuers 51%)"},
	{Name: "expert", Targets: []string{"ismcts:net=default,rollout=valuer", "ismcts"},
		Description: "level 4 of 4: search guided by the default network (ismcts:net=default,rollout=valuer); " +
			"4 players: beats three hard 91.7% (60 games) and three plain ismcts 33.9% (140 games); " +
			"plain ismcts where default has no model (beats three valuers 80%)"},
}

func init() {
	for _, l := range Levels {
		if err := RegisterAlias(l.Name, l.Description, l.Targets...); err != nil {
			panic(err)
		}
	}
}

// LevelOf returns the level called name.
func LevelOf(name string) (Level, bool) {
	for _, l := range Levels {
		if l.Name == name {
			return l, true
		}
	}
	return Level{}, false
}
