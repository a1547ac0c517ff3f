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

// ExpertSearch is expert's agent for 4-player base games: the default network's prior, leaves
// scored half by the value network value-4p and half by 40-decision valuer rollouts, 1200
// simulations a decision (about 36 ms a move on two quiet cores).
const ExpertSearch = "ismcts:sims=1200,net=default,value=value-4p,leaf=mix,depth=40"

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
	{Name: "expert", Targets: []string{ExpertSearch, "ismcts:net=default,rollout=valuer", "ismcts"},
		Description: "level 4 of 4: search guided by the default network, its leaves scored by the value network value-4p mixed with short valuer rollouts (" + ExpertSearch + "); " +
			"4 players: beats three hard 96.7% (60 games), and at 50 ms a move three plain ismcts 35.0% (80 games); " +
			"where value-4p has no model, the search with valuer rollouts (ismcts:net=default,rollout=valuer: beats three plain ismcts 33.9%, 140 games); " +
			"plain ismcts where default has no model either (beats three valuers 80%)"},
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
