package rules

// Score is one seat's final-scoring breakdown (the five steps of final scoring).
type Score struct {
	Cash              int    `json:"cash"`     // cash in hand
	Island            int    `json:"island"`   // value of the scoring area after the discard
	Leftover          int    `json:"leftover"` // ship and holding $3, harbor $2, factory $0
	Loans             int    `json:"loans"`    // minus $11 (or amount+1) per open loan
	Total             int    `json:"total"`
	Discarded         Colour `json:"discarded"` // colour discarded as most common (NumColours if none)
	DiscardedCount    int    `json:"discarded_count"`
	GoldAs            Colour `json:"gold_as"`     // colour gold counted as (NumColours if no gold)
	AllColours        bool   `json:"all_colours"` // two-value colour scored $10
	FactoryContainers int    `json:"factory_containers"`
	Rank              int    `json:"rank"` // 1 = winner (shared wins share rank 1)
	Winner            bool   `json:"winner"`
}
