package web

import (
	"fmt"
	"html"
	"strings"

	"github.com/container-rl/container/env/rules"
)

// The board picture. BoardSVG draws a redacted view as an SVG document: the supplies, the open
// sea, Container Island with the delivery auction, the Off-Shore Bank with its lots and open
// auctions, and one panel per seat with factories, warehouses, both stores lot by lot, the
// ship, the Bank holding area, the island scoring area, cash, loans and module pieces. Shapes
// that stand for a legal move of the viewer carry data-move (the move's notation), so the
// page can offer moves on the board.

// Container colours: the Okabe-Ito palette (safe for the common colour-vision deficiencies),
// with the colour's letter on every container so colour is never the only cue.
var chipFill = [rules.NumColours]string{"#ffffff", "#009e73", "#d55e00", "#0072b2", "#f0e442", "#e69f00"}
var chipText = [rules.NumColours]string{"#111", "#fff", "#fff", "#fff", "#111", "#111"}
var chipLetter = [rules.NumColours]string{"W", "G", "R", "B", "Y", "Au"}

// Seat colours of the panel headers (distinct from container colours, with the seat name).
var seatFill = [rules.MaxPlayers]string{"#4b4b8f", "#7a4b2a", "#2f6f6f", "#7a2f5a", "#55702f"}

const (
	svgWidth = 1200
	chipSize = 18
	chipStep = 21
)

// svgBoard accumulates one SVG document.
type svgBoard struct {
	b      strings.Builder
	v      *rules.State // the redacted view drawn
	viewer int          // seat whose view it is, -1 for the whole game
	legal  map[string]bool
	// islandW is the width of Container Island's box (set by sea).
	islandW int
	d       rules.Decision
	names   []string
	// prev, when not nil, is an earlier view of the same seat: what changed since is
	// outlined (class "changed") and cash changes are written next to the cash.
	prev *rules.State
}

// BoardSVG draws view (already redacted for viewer; viewer -1: the full game) with names as
// the seat labels (nil: p1..pN). legal holds the viewer's legal moves, whose board shapes
// become clickable (nil when the viewer does not decide).
func BoardSVG(view *rules.State, viewer int, names []string, legal []rules.Move) string {
	return BoardSVGChanges(view, viewer, names, legal, nil)
}

// BoardSVGChanges is BoardSVG with what changed since prev (an earlier view of the same
// viewer; nil: nothing marked) outlined.
func BoardSVGChanges(view *rules.State, viewer int, names []string, legal []rules.Move, prev *rules.State) string {
	g := &svgBoard{v: view, viewer: viewer, names: names, legal: map[string]bool{}, prev: prev}
	for _, m := range legal {
		g.legal[m.String()] = true
	}
	if !view.IsTerminal() {
		g.d = view.Decision()
	}
	return g.draw()
}

func (g *svgBoard) opts() rules.Options { return g.v.Game().Options() }

// hot returns the attributes making a shape a move target when m is legal.
func (g *svgBoard) hot(m rules.Move) string {
	t := m.String()
	if !g.legal[t] {
		return ""
	}
	return fmt.Sprintf(` class="hot" data-move="%s" tabindex="0"`, html.EscapeString(t))
}

// mark outlines a region that changed since g.prev (when changed is true).
func (g *svgBoard) mark(changed bool, x, y, w, h int) {
	if !changed || g.prev == nil {
		return
	}
	g.printf(`<rect class="changed" x="%d" y="%d" width="%d" height="%d" rx="5" fill="none" stroke="#ff8c00" stroke-width="3" stroke-dasharray="7 3" pointer-events="none"/>`, x, y, w, h)
}

// was returns seat s's player in g.prev (nil without one).
func (g *svgBoard) was(s int) *rules.Player {
	if g.prev == nil {
		return nil
	}
	return &g.prev.Players[s]
}

func (g *svgBoard) printf(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

func (g *svgBoard) text(x, y int, size int, weight, anchor, fill, s string) {
	g.printf(`<text x="%d" y="%d" font-size="%d" font-weight="%s" text-anchor="%s" fill="%s">%s</text>`,
		x, y, size, weight, anchor, fill, html.EscapeString(s))
}

// fit shortens s to about px pixels at font size size, ending it with "…" when it is cut.
// The width is an estimate (0.56 em a character, 0.62 em bold; system-ui in the test
// browser measures 0.49-0.53 em, 0.57 em bold), so long names and loan lists stay inside
// their panels.
func fit(s string, px, size int, bold bool) string {
	em := 0.56
	if bold {
		em = 0.62
	}
	r := []rune(s)
	most := int(float64(px) / (em * float64(size)))
	if len(r) <= most || most < 2 {
		return s
	}
	return strings.TrimRight(string(r[:most-1]), " ·,") + "…"
}

func (g *svgBoard) seatName(s int) string {
	n := fmt.Sprintf("p%d", s+1)
	if s < len(g.names) && g.names[s] != "" {
		n += " " + g.names[s]
	}
	return n
}

// chip draws one container with its letter; attrs makes it a move target.
func (g *svgBoard) chip(x, y int, c rules.Colour, attrs string) {
	g.printf(`<g%s><rect x="%d" y="%d" width="%d" height="%d" rx="3" fill="%s" stroke="#333" stroke-width="1"/>`,
		attrs, x, y, chipSize, chipSize, chipFill[c])
	size := 12
	if c == rules.Gold {
		size = 9
	}
	g.printf(`<text x="%d" y="%d" font-size="%d" font-weight="bold" text-anchor="middle" fill="%s">%s</text></g>`,
		x+chipSize/2, y+13, size, chipText[c], chipLetter[c])
}

// chips draws the containers of c in rows of perRow from (x, y), at most rows rows; when they
// do not all fit, the last place shows "+n" for the n not drawn. move returns the move
// picking a container of that colour (Kind 0: none).
func (g *svgBoard) chips(x, y, perRow, rows int, c rules.Counts, move func(rules.Colour) rules.Move) {
	if perRow < 1 {
		perRow = 1
	}
	k := 0
	total := c.Total()
	for col := rules.Colour(0); col < rules.NumColours; col++ {
		for n := 0; n < int(c[col]); n++ {
			if total > perRow*rows && k == perRow*rows-1 {
				g.text(x+(perRow-1)*chipStep+chipSize/2, y+(rows-1)*chipStep+13, 11, "bold", "middle", "#333", fmt.Sprintf("+%d", total-k))
				return
			}
			attrs := ""
			if move != nil {
				attrs = g.hot(move(col))
			}
			g.chip(x+(k%perRow)*chipStep, y+(k/perRow)*chipStep, col, attrs)
			k++
		}
	}
}

// hotArea opens a group for labels that stand for move m, with a clickable (invisible)
// rectangle behind them when m is legal; close it with </g>.
func (g *svgBoard) hotArea(x, y, w, h int, m rules.Move) {
	attrs := g.hot(m)
	g.printf(`<g%s>`, attrs)
	if attrs != "" {
		g.printf(`<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="#fff" fill-opacity="0"/>`, x, y, w, h)
	}
}

func (g *svgBoard) box(x, y, w, h int, fill, attrs string) {
	g.printf(`<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="#667" stroke-width="1"%s/>`, x, y, w, h, fill, attrs)
}

func (g *svgBoard) draw() string {
	o := g.opts()
	n := o.Players
	cols := 2
	if n == 5 {
		cols = 3
	}
	rows := (n + cols - 1) / cols
	panelW := (svgWidth - 20 - (cols-1)*10) / cols
	panelH := 266
	if o.Modules != 0 {
		panelH += 22
	}
	top := 250
	height := top + rows*(panelH+10) + 10
	g.printf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" class="board" role="img" font-family="system-ui, sans-serif">`, svgWidth, height)
	g.printf(`<title>%s</title>`, html.EscapeString(g.title()))
	g.printf(`<rect width="%d" height="%d" fill="#eef3f7"/>`, svgWidth, height)
	g.header()
	g.sea()
	for i := 0; i < n; i++ {
		x := 10 + (i%cols)*(panelW+10)
		y := top + (i/cols)*(panelH+10)
		g.panel(i, x, y, panelW, panelH)
	}
	g.b.WriteString(`</svg>`)
	return g.b.String()
}

func (g *svgBoard) title() string {
	o := g.opts()
	t := fmt.Sprintf("Container, %d players, %s rules, turn %d", o.Players, o.Variant, g.v.Turn+1)
	if g.viewer >= 0 {
		t += fmt.Sprintf(", view of p%d", g.viewer+1)
	}
	return t
}

// header draws the supplies: containers (clickable when choosing a colour), factories
// (clickable when building one) and warehouses.
func (g *svgBoard) header() {
	o := g.opts()
	v := g.v
	g.box(10, 10, svgWidth-20, 60, "#fff", "")
	g.text(22, 32, 15, "bold", "start", "#223", "Supply")
	x := 90
	for c := rules.Colour(0); c < rules.NumColours; c++ {
		if c == rules.Gold && !o.Modules.Has(rules.Luxury) {
			continue
		}
		g.chip(x, 18, c, g.hot(rules.Move{Kind: rules.PickColour, Colour: c}))
		g.text(x+chipSize+4, 32, 14, "normal", "start", "#223", fmt.Sprint(v.Supply[c]))
		g.mark(g.prev != nil && g.prev.Supply[c] != v.Supply[c], x-3, 15, 48, 24)
		x += 52
	}
	if v.Removed.Total() > 0 {
		g.text(x, 32, 12, "normal", "start", "#555", "removed "+v.Removed.Letters())
	}
	g.text(22, 60, 15, "bold", "start", "#223", "Factories")
	x = 110
	for c := rules.Colour(0); c < rules.NumNormalColours; c++ {
		g.printf(`<g%s><rect x="%d" y="45" width="22" height="20" rx="2" fill="%s" stroke="#333" stroke-dasharray="3 2"/>`,
			g.hot(rules.Move{Kind: rules.BuildFactory, Colour: c}), x, chipFill[c])
		g.printf(`<text x="%d" y="60" font-size="12" font-weight="bold" text-anchor="middle" fill="%s">%s</text></g>`, x+11, chipText[c], chipLetter[c])
		g.text(x+26, 60, 14, "normal", "start", "#223", fmt.Sprint(v.FactorySupply[c]))
		x += 52
	}
	g.hotArea(x+4, 46, 112, 20, rules.Move{Kind: rules.BuildWarehouse})
	g.text(x+10, 60, 14, "normal", "start", "#223", fmt.Sprintf("Warehouses %d", v.WarehouseSupply))
	g.b.WriteString(`</g>`)
	status := fmt.Sprintf("Turn %d", v.Turn+1)
	switch {
	case v.IsTerminal():
		status += " · game over"
	default:
		status += fmt.Sprintf(" · %s decides %s", g.seatName(g.d.Decider), g.d.Phase)
	}
	if v.EndTriggered && !v.IsTerminal() {
		status += " · last turn"
	}
	g.text(svgWidth-22, 32, 15, "bold", "end", "#223", fit(status, svgWidth-22-x-20, 15, true))
	g.text(svgWidth-22, 60, 13, "normal", "end", "#445", fmt.Sprintf("%s rules, %s game%s", o.Variant, o.Length, modulesSuffix(o)))
}

func modulesSuffix(o rules.Options) string {
	if o.Modules == 0 {
		return ""
	}
	return ", modules: " + o.Modules.String()
}

// shipsAt lists the seats whose ship is at w.
func (g *svgBoard) shipsAt(w rules.Where) []int {
	var out []int
	for i := 0; i < g.opts().Players; i++ {
		if g.v.Players[i].ShipAt.Where == w {
			out = append(out, i)
		}
	}
	return out
}

// ship draws seat s's ship with its cargo at (x, y).
func (g *svgBoard) ship(s, x, y int) {
	p := &g.v.Players[s]
	g.printf(`<g data-ship="p%d"><path d="M%d %d h110 l-12 22 h-86 z" fill="%s" stroke="#223"/>`, s+1, x, y+8, seatFill[s])
	if was := g.was(s); was != nil {
		g.mark(was.ShipAt != p.ShipAt || was.Ship != p.Ship, x-3, y-15, 116, 48)
	}
	g.text(x+10, y+24, 11, "bold", "start", "#fff", fmt.Sprintf("p%d", s+1))
	g.chips(x+30, y-12, 5, 1, p.Ship, func(c rules.Colour) rules.Move {
		if g.pickOwner() != s {
			return rules.Move{Kind: rules.NumMoveKinds}
		}
		return rules.Move{Kind: rules.PickShip, Colour: c}
	})
	g.b.WriteString(`</g>`)
}

// pickOwner is the seat whose containers the viewer's pick moves take.
func (g *svgBoard) pickOwner() int {
	switch g.d.Phase {
	case rules.PhaseBuyFactory, rules.PhaseBuyHarbor, rules.PhaseSeize:
		return g.d.Counterpart
	}
	return g.d.Decider
}

// sea draws the open sea, Container Island (with the delivery auction) and the Off-Shore Bank.
func (g *svgBoard) sea() {
	o := g.opts()
	y := 80
	h := 160
	classic := o.Variant == rules.Classic
	seaW, islW := 250, 380
	if classic {
		seaW, islW = 500, 670
	}
	// Open sea.
	g.box(10, y, seaW, h, "#cfe3f3", g.hot(rules.Move{Kind: rules.SailOcean}))
	g.text(22, y+22, 15, "bold", "start", "#123", "Open sea")
	perRow := max(1, (seaW-12)/118)
	for k, s := range g.shipsAt(rules.AtOcean) {
		g.ship(s, 18+(k%perRow)*118, y+42+(k/perRow)*40)
	}
	// Container Island.
	ix := 20 + seaW
	g.islandW = islW
	g.box(ix, y, islW, h, "#e4efd9", g.hot(rules.Move{Kind: rules.SailIsland}))
	g.text(ix+12, y+22, 15, "bold", "start", "#123", "Container Island")
	perRow = max(1, (islW-12)/118)
	for k, s := range g.shipsAt(rules.AtIsland) {
		g.ship(s, ix+10+(k%perRow)*118, y+42+(k/perRow)*40)
	}
	g.deliveryAuction(ix+12, y+130)
	if classic {
		return
	}
	// Off-Shore Bank.
	bx := ix + islW + 10
	bw := svgWidth - 10 - bx
	g.box(bx, y, bw, h, "#f3ead7", "")
	// Sailing here is the title strip: the lots below it are targets of their own (calling
	// the Bank), so the whole box would have its centre under a lot.
	g.hotArea(bx+2, y+2, bw-4, 27, rules.Move{Kind: rules.SailBank})
	g.text(bx+12, y+22, 15, "bold", "start", "#123", "Off-Shore Bank")
	g.b.WriteString(`</g>`)
	lotW := (bw - 24 - 2*8) / 3
	v := g.v
	for l := 0; l < rules.BankLots; l++ {
		lx := bx + 12 + l*(lotW+8)
		g.box(lx, y+32, lotW, 52, "#fffaf0", g.hot(rules.Move{Kind: rules.CallBankStart, Index: uint8(l)}))
		g.text(lx+6, y+46, 11, "bold", "start", "#553", fmt.Sprintf("Lot %s containers", roman(l)))
		g.chips(lx+6, y+52, max(1, (lotW-8)/chipStep), 1, v.Bank.ContainerLots[l], nil)
		g.mark(g.prev != nil && g.prev.Bank.ContainerLots[l] != v.Bank.ContainerLots[l], lx-2, y+30, lotW+4, 56)
		g.box(lx, y+88, lotW, 22, "#fffaf0", g.hot(rules.Move{Kind: rules.CallBankStart, Index: uint8(rules.BankLots + l)}))
		g.text(lx+6, y+104, 12, "bold", "start", "#553", fmt.Sprintf("Lot %s cash $%d", roman(l), v.Bank.CashLots[l]))
		g.mark(g.prev != nil && g.prev.Bank.CashLots[l] != v.Bank.CashLots[l], lx-2, y+86, lotW+4, 26)
	}
	ships := g.shipsAt(rules.AtBank)
	ty := y + 128
	var lines []string
	for k, a := range v.Auctions {
		if !a.Active {
			continue
		}
		lines = append(lines, auctionText(rules.AuctionKind(k), a))
	}
	if len(lines) == 0 {
		lines = append(lines, "no auction open")
	}
	for i, l := range lines {
		g.text(bx+12, ty+i*15, 12, "normal", "start", "#332", fit(l, bw-24, 12, false))
	}
	g.mark(g.prev != nil && g.prev.Auctions != v.Auctions, bx+4, ty-13, bw-8, 15*len(lines)+4)
	if len(ships) > 0 {
		var names []string
		for _, s := range ships {
			names = append(names, fmt.Sprintf("p%d", s+1))
		}
		g.text(bx+bw-12, y+22, 12, "normal", "end", "#332", "anchored: "+strings.Join(names, ", "))
	}
}

func roman(l int) string {
	if l >= 0 && l < 3 {
		return [3]string{"I", "II", "III"}[l]
	}
	return "?"
}

// auctionText describes an open Bank auction and its bid (bids on the Bank are public).
func auctionText(k rules.AuctionKind, a rules.Auction) string {
	bid := fmt.Sprintf("$%d", a.Cash)
	if k != rules.ContainerLotAuction && a.Cash == 0 {
		var c rules.Counts
		c = a.FromFactory
		c.Add(&a.FromHarbor)
		bid = fmt.Sprintf("%d containers (%s)", c.Total(), strings.ToUpper(c.Letters()))
		if c.Total() == 0 {
			bid = "containers (bid being made)"
		}
	}
	switch k {
	case rules.ContainerLotAuction:
		return fmt.Sprintf("Auction: container lot %s, p%d bids %s", roman(int(a.Target)), a.Bidder+1, bid)
	case rules.CashLotAuction:
		return fmt.Sprintf("Auction: cash lot %s, p%d bids %s", roman(int(a.Target)), a.Bidder+1, bid)
	}
	return fmt.Sprintf("Auction: p%d's truck company, p%d bids %s", a.Target+1, a.Bidder+1, bid)
}

// deliveryAuction shows the bids of a delivery auction in progress: each bidder's bid when
// the view may see it, "sealed" otherwise (the redacted view holds 0 for it anyway).
func (g *svgBoard) deliveryAuction(x, y int) {
	v := g.v
	m := &g.d.Delivery
	if v.IsTerminal() || g.d.Action.Kind != rules.SailIsland || m.HasBid == 0 || g.d.Phase == rules.PhaseTurn {
		return
	}
	var parts []string
	for i := 0; i < g.opts().Players; i++ {
		if m.HasBid&(1<<uint(i)) == 0 {
			continue
		}
		bid := "sealed"
		if g.viewer < 0 || g.viewer == i || m.Revealed {
			bid = fmt.Sprintf("$%d", m.Bids[i])
		}
		if m.HasRunoff&(1<<uint(i)) != 0 {
			if g.viewer < 0 || g.viewer == i || m.RunoffRevealed {
				bid += fmt.Sprintf(" +$%d", m.Runoff[i])
			} else {
				bid += " +sealed"
			}
		}
		parts = append(parts, fmt.Sprintf("p%d %s", i+1, bid))
	}
	g.text(x, y, 13, "bold", "start", "#234", "Delivery bids:")
	g.text(x, y+18, 13, "normal", "start", "#234", fit(strings.Join(parts, " · "), g.islandW-24, 13, false))
}

// panel draws one seat's board.
func (g *svgBoard) panel(s, x, y, w, h int) {
	v := g.v
	o := g.opts()
	p := &v.Players[s]
	fill := "#ffffff"
	if s == g.viewer {
		fill = "#fffdf2"
	}
	g.printf(`<g data-seat="p%d">`, s+1)
	g.box(x, y, w, h, fill, "")
	// Header: seat, cash, loans, scoring card.
	g.printf(`<g%s><rect x="%d" y="%d" width="%d" height="28" rx="6" fill="%s"/>`, g.hot(rules.Move{Kind: rules.ChooseSeat, Seat: int8(s)}), x, y, w, seatFill[s])
	label := g.seatName(s)
	if s == g.viewer && !strings.Contains(label, "you") {
		label += " (you)"
	}
	if s == int(v.Active) && !v.IsTerminal() {
		label = "▶ " + label
	}
	// Room up to the cash and the badge of its change.
	g.text(x+10, y+19, 14, "bold", "start", "#fff", fit(label, w-130, 14, true))
	g.b.WriteString(`</g>`)
	g.text(x+w-10, y+19, 14, "bold", "end", "#fff", fmt.Sprintf("$%d", p.Cash))
	if was := g.was(s); was != nil && was.Cash != p.Cash {
		delta := int(p.Cash) - int(was.Cash)
		sign := "+"
		if delta < 0 {
			sign = "−"
			delta = -delta
		}
		g.printf(`<g class="changed" pointer-events="none"><rect x="%d" y="%d" width="46" height="20" rx="10" fill="#ffe066"/>`, x+w-110, y+4)
		g.text(x+w-87, y+19, 13, "bold", "middle", "#222", fmt.Sprintf("%s$%d", sign, delta))
		g.b.WriteString(`</g>`)
	}
	lines := []string{}
	if card := g.cardText(s); card != "" {
		lines = append(lines, card)
	}
	if p.NumLoans > 0 {
		var ls []string
		for l := 0; l < int(p.NumLoans) && l < rules.MaxLoans; l++ {
			who := "Bank"
			if p.Loans[l].Lender >= 0 {
				who = fmt.Sprintf("p%d", p.Loans[l].Lender+1)
			}
			ls = append(ls, fmt.Sprintf("%s $%d", who, p.Loans[l].Amount))
		}
		lines = append(lines, "Loans: "+strings.Join(ls, ", "))
	}
	cy := y + 46
	// One line when it fits the panel (about 6.5 px a character at 12 px), else two smaller.
	if joined := strings.Join(lines, " · "); len(lines) > 0 && fit(joined, w-20, 12, false) == joined {
		g.text(x+10, cy, 12, "normal", "start", "#333", joined)
	} else if len(lines) > 0 {
		for i, l := range lines {
			g.text(x+10, cy-6+i*12, 11, "normal", "start", "#333", fit(l, w-20, 11, false))
		}
	}
	if was := g.was(s); was != nil {
		g.mark(was.NumLoans != p.NumLoans || was.Loans != p.Loans, x+4, y+31, w-8, 21)
	}
	cy += 10
	// Factory district.
	labelW := 92
	var fac []string
	for c := rules.Colour(0); c < rules.NumNormalColours; c++ {
		if p.Factories&(1<<uint(c)) != 0 {
			fac = append(fac, chipLetter[c])
		}
	}
	g.hotArea(x+6, cy+2, labelW-10, 38, rules.Move{Kind: rules.FactoryPurchase, Seat: int8(s)})
	g.text(x+10, cy+16, 12, "bold", "start", "#333", "Factories")
	g.text(x+10, cy+32, 12, "normal", "start", "#333", strings.Join(fac, " "))
	g.b.WriteString(`</g>`)
	if was := g.was(s); was != nil {
		g.mark(was.Factories != p.Factories, x+4, cy, labelW-6, 50)
	}
	for c := rules.Colour(0); c < rules.NumNormalColours; c++ {
		if p.Factories&(1<<uint(c)) != 0 {
			g.printf(`<rect x="%d" y="%d" width="10" height="8" fill="%s" stroke="#333"/>`, x+10+int(c)*12, cy+38, chipFill[c])
		}
	}
	g.lots(s, x+labelW, cy, w-labelW-10, rules.FactoryDistrict, p.FactoryLots[:])
	cy += 64
	g.hotArea(x+6, cy+2, labelW-10, 38, rules.Move{Kind: rules.SailHarbor, Seat: int8(s)})
	g.text(x+10, cy+16, 12, "bold", "start", "#333", "Harbor")
	g.text(x+10, cy+32, 12, "normal", "start", "#333", fmt.Sprintf("%d warehouse%s", p.Warehouses, map[bool]string{true: "", false: "s"}[p.Warehouses == 1]))
	g.b.WriteString(`</g>`)
	if was := g.was(s); was != nil {
		g.mark(was.Warehouses != p.Warehouses, x+4, cy, labelW-6, 42)
	}
	g.lots(s, x+labelW, cy, w-labelW-10, rules.HarborDistrict, p.HarborLots[:])
	cy += 64
	// Ship (where it is), holding area, island.
	g.text(x+10, cy+14, 12, "bold", "start", "#333", "Ship")
	g.text(x+44, cy+14, 11, "normal", "start", "#555", g.whereText(p.ShipAt))
	if was := g.was(s); was != nil {
		g.mark(was.ShipAt != p.ShipAt || was.Ship != p.Ship, x+4, cy-2, labelW+5*chipStep, 24)
	}
	g.chips(x+labelW, cy, 5, 1, p.Ship, func(c rules.Colour) rules.Move {
		if g.pickOwner() != s {
			return rules.Move{Kind: rules.NumMoveKinds}
		}
		return rules.Move{Kind: rules.PickShip, Colour: c}
	})
	if o.Variant != rules.Classic {
		hx := x + labelW + 5*chipStep + 12
		g.text(hx, cy+14, 12, "bold", "start", "#333", "Holding")
		if was := g.was(s); was != nil {
			g.mark(was.Holding != p.Holding, hx-4, cy-2, x+w-hx-2, 24)
		}
		g.chips(hx+56, cy, max(1, (x+w-hx-66)/chipStep), 1, p.Holding, func(c rules.Colour) rules.Move {
			if g.pickOwner() != s {
				return rules.Move{Kind: rules.NumMoveKinds}
			}
			return rules.Move{Kind: rules.PickHolding, Colour: c}
		})
	}
	cy += 26
	g.text(x+10, cy+14, 12, "bold", "start", "#333", fmt.Sprintf("Island (%d)", p.Island.Total()))
	if was := g.was(s); was != nil {
		g.mark(was.Island != p.Island, x+4, cy-2, w-8, 46)
	}
	g.chips(x+labelW, cy, max(1, (w-labelW-10)/chipStep), 2, p.Island, func(c rules.Colour) rules.Move {
		if g.pickOwner() != s {
			return rules.Move{Kind: rules.NumMoveKinds}
		}
		return rules.Move{Kind: rules.PickIsland, Colour: c}
	})
	cy += 46
	if o.Modules != 0 {
		var mods []string
		if o.Modules.Has(rules.Trucks) {
			c := v.Companies[s]
			switch {
			case int(c.Owner) == s:
				mods = append(mods, "company: own")
			case c.Owner >= 0:
				mods = append(mods, fmt.Sprintf("company: p%d's", c.Owner+1))
			default:
				mods = append(mods, fmt.Sprintf("company: free ($%d fees)", c.Pile))
			}
			mods = append(mods, fmt.Sprintf("trucks %d", p.Trucks))
		}
		if o.Modules.Has(rules.PlayerLoans) {
			mods = append(mods, fmt.Sprintf("loan cards %d", p.LoanCards))
		}
		g.text(x+10, cy+12, 12, "normal", "start", "#333", fit(strings.Join(mods, " · "), w-20, 12, false))
	}
	g.b.WriteString(`</g>`)
}

// cardText is the scoring card of seat s when the view may see it ("" otherwise).
func (g *svgBoard) cardText(s int) string {
	p := &g.v.Players[s]
	if !(g.viewer < 0 || g.viewer == s) || int(p.Card) >= rules.NumScoringCards {
		return ""
	}
	vals, two, _ := rules.ScoringCardValues(int(p.Card))
	parts := make([]string, 0, rules.NumNormalColours)
	for c := rules.Colour(0); c < rules.NumNormalColours; c++ {
		if c == two {
			parts = append(parts, fmt.Sprintf("%s $10/$5", chipLetter[c]))
		} else {
			parts = append(parts, fmt.Sprintf("%s $%d", chipLetter[c], vals[c]))
		}
	}
	return fmt.Sprintf("Card %d: %s", p.Card, strings.Join(parts, " "))
}

func (g *svgBoard) whereText(p rules.ShipPos) string {
	switch p.Where {
	case rules.AtOcean:
		return "at sea"
	case rules.AtIsland:
		return "island"
	case rules.AtBank:
		return "at Bank"
	case rules.AtHarbor:
		return fmt.Sprintf("at p%d", p.Seat+1)
	}
	return "?"
}

// lots draws the price lots of one store; a lot is a placement target and each container a
// pick target when those moves are legal for the viewer.
func (g *svgBoard) lots(s, x, y, w int, d rules.District, lots []rules.Counts) {
	n := len(lots)
	lw := (w - (n-1)*6) / n
	for i := range lots {
		price := i + 1
		kind := rules.PickFactory
		if d == rules.HarborDistrict {
			price = i + 2
			kind = rules.PickHarbor
		}
		lx := x + i*(lw+6)
		attrs := ""
		if s == g.d.Decider && g.d.District == d {
			attrs = g.hot(rules.Move{Kind: rules.Place, Price: uint8(price)})
		}
		g.printf(`<g data-lot="p%d-%s-%d">`, s+1, d, price)
		g.box(lx, y, lw, 58, "#f6f7f9", attrs)
		if was := g.was(s); was != nil {
			before := was.FactoryLots[:]
			if d == rules.HarborDistrict {
				before = was.HarborLots[:]
			}
			g.mark(i < len(before) && before[i] != lots[i], lx-2, y-2, lw+4, 62)
		}
		g.text(lx+4, y+13, 11, "bold", "start", "#556", fmt.Sprintf("$%d", price))
		g.chips(lx+4, y+16, max(1, (lw-6)/chipStep), 2, lots[i], func(c rules.Colour) rules.Move {
			if g.pickOwner() != s {
				return rules.Move{Kind: rules.NumMoveKinds}
			}
			return rules.Move{Kind: kind, Colour: c, Price: uint8(price)}
		})
		g.b.WriteString(`</g>`)
	}
}
