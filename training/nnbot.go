package training

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/container-rl/container/encoding"
	"github.com/container-rl/container/env/bots"
	"github.com/container-rl/container/env/rules"
	"github.com/container-rl/container/models"
)

// NetBot plays with an exported network through the bots.Bot interface: it encodes its
// redacted view, masks the illegal actions and picks the argmax (Temperature 0) or samples
// from the softmax at Temperature. It implements bots.BatchBot for batched inference across
// games and bots.Seeder. One NetBot serves one goroutine; bots made from the same file share
// the (read-only) weights.
type NetBot struct {
	name        string
	file        *BotFile
	net         *Net
	Temperature float32
	// LoopBreakTurn: from this turn of a game on, a bot at Temperature 0 samples its moves at
	// temperature 1 (0: never). A bot that always plays its most likely move repeats itself
	// in a position that repeats, and in a game where every opponent is broke the position
	// repeats until the rules' safety turn limit; the policy it was trained as samples, and
	// so ends such games. NewNetBot sets DefaultLoopBreakTurn; SetTemperature (a spec's "@T")
	// sets 0, so "@0" plays the most likely move all game, as bots did before commit
	// faf9b65 (2026-12-02).
	LoopBreakTurn int

	rng     *rand.Rand
	enc     *encoding.Encoder
	encOpts rules.Options
	encVar  encoding.Options    // the observation variant enc writes
	encs    []*encoding.Encoder // one more encoder per extra worker of ActBatch (lazily)
	errs    []error             // per worker of ActBatch
	err     error
	wss     []Workspace
	obs     []float32
	mask    []float32
	logits  []float32
}

// NewNetBot makes a bot from a loaded bot file. opts, when non-nil, are checked against the
// options the bot was trained for right away; otherwise the check happens on the first move.
func NewNetBot(name string, f *BotFile, opts *rules.Options, seed uint64) (*NetBot, error) {
	net, err := sharedNet(f.Weights)
	if err != nil {
		return nil, err
	}
	b := &NetBot{name: name, file: f, net: net, wss: make([]Workspace, 2), LoopBreakTurn: DefaultLoopBreakTurn}
	b.Seed(seed)
	if opts != nil {
		g, err := rules.NewGame(*opts)
		if err != nil {
			return nil, fmt.Errorf("training: %w", err)
		}
		if err := b.useGame(g); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Name implements bots.Bot.
func (b *NetBot) Name() string { return b.name }

// Seed implements bots.Seeder.
func (b *NetBot) Seed(seed uint64) { b.rng = rand.New(rand.NewPCG(seed, 0x6e6e626f74)) }

// DefaultLoopBreakTurn is the turn from which a NetBot at temperature 0 samples at
// temperature 1 (NetBot.LoopBreakTurn): past nearly every game that ends by the rules (the
// longest of 300 games against valuers ended at turn 223, 5 players with all modules; 4
// players at 140), a quarter of the way to the rules' safety limit of 1000 turns.
const DefaultLoopBreakTurn = 250

// SetTemperature implements bots.TemperatureSetter: 0 plays the most likely legal move, T > 0
// samples from the masked softmax at T (the "@T" suffix of a bot spec, e.g. default@0.5),
// all game long: it turns the loop breaker (LoopBreakTurn) off.
func (b *NetBot) SetTemperature(t float64) error {
	if math.IsNaN(t) || t < 0 || t > bots.MaxTemperature {
		return fmt.Errorf("training: temperature %v out of range [0, %d]", t, bots.MaxTemperature)
	}
	b.Temperature = float32(t)
	b.LoopBreakTurn = 0
	return nil
}

// temperature is the temperature of a move from view.
func (b *NetBot) temperature(view *rules.State) float32 {
	if b.Temperature <= 0 && b.LoopBreakTurn > 0 && int(view.Turn) >= b.LoopBreakTurn {
		return 1
	}
	return b.Temperature
}

// Err reports why the bot could not use its network (options it was not trained for); it
// then plays its first legal action.
func (b *NetBot) Err() error { return b.err }

// Fingerprint is the hex SHA-256 of the bot file as this build writes it (its header and
// weights): two networks under one name have different fingerprints.
func (b *NetBot) Fingerprint() string {
	var buf bytes.Buffer
	if err := b.file.Write(&buf); err != nil {
		return ""
	}
	h := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(h[:])
}

// File returns the bot file the bot plays.
func (b *NetBot) File() *BotFile { return b.file }

func sameGameOptions(a, o rules.Options) bool {
	a.Seed, o.Seed = 0, 0
	return a == o
}

// useGame prepares the encoder for g's options and checks the bot was trained for them.
func (b *NetBot) useGame(g *rules.Game) error {
	if b.enc != nil && sameGameOptions(b.encOpts, g.Options()) {
		return b.err
	}
	// The bot reads the observation variant it was trained on (e.g. with opponents' cash
	// hidden), encoded from its own redacted view.
	v := b.file.Header.EncodingVersion
	if up, ok := encoding.UpgradedVersion(v); ok {
		v = up // a previous layout: CheckCompatible names both and how to upgrade
	}
	eo, err := encoding.OptionsForVersion(v)
	if err != nil {
		b.enc, b.encOpts = nil, rules.Options{}
		b.err = fmt.Errorf("%w: %w", ErrIncompatible, err)
		return b.err
	}
	enc := encoding.NewEncoderWith(g, eo)
	b.enc, b.encOpts, b.encVar, b.encs = enc, g.Options(), eo, nil
	b.err = b.file.CheckCompatible(enc.Spec().Version, enc.Size(), CurrentActionLayout(), g.Options())
	return b.err
}

func (b *NetBot) grow(rows int) {
	cfg := b.net.Config()
	if len(b.obs) < rows*cfg.ObsDim {
		b.obs = make([]float32, rows*cfg.ObsDim)
		b.mask = make([]float32, rows*cfg.NumActions)
		b.logits = make([]float32, rows*cfg.NumActions)
	}
}

// encodeRow writes row r's observation and mask; false when the network cannot be used.
func (b *NetBot) encodeRow(r int, view *rules.State, legal []int) bool {
	if b.useGame(view.Game()) != nil {
		return false
	}
	if err := b.encodeRowWith(b.enc, r, view, legal); err != nil {
		b.err = err
		return false
	}
	return true
}

// encodeRowWith writes row r's observation (with enc, made for view's game) and mask.
func (b *NetBot) encodeRowWith(enc *encoding.Encoder, r int, view *rules.State, legal []int) error {
	cfg := b.net.Config()
	d := view.Decision()
	if err := enc.Encode(view, d.Decider, d, b.obs[r*cfg.ObsDim:(r+1)*cfg.ObsDim]); err != nil {
		return fmt.Errorf("training: bot %s: %w", b.name, err)
	}
	m := b.mask[r*cfg.NumActions : (r+1)*cfg.NumActions]
	clear(m)
	for _, a := range legal {
		if a >= 0 && a < len(m) {
			m[a] = 1
		}
	}
	return nil
}

// choose picks an action from row r's masked logits at temperature temp.
func (b *NetBot) choose(r int, legal []int, temp float32) int {
	A := b.net.Config().NumActions
	l := b.logits[r*A : (r+1)*A]
	if temp <= 0 {
		best := legal[0] // kept only when no legal move is one of the network's actions
		found := false
		for _, a := range legal {
			if a >= 0 && a < A && (!found || l[a] > l[best]) {
				best, found = a, true
			}
		}
		return best
	}
	SoftmaxRow(l, temp)
	u := b.rng.Float32()
	last := legal[len(legal)-1] // kept only when no legal move has a probability
	for _, a := range legal {
		if a < 0 || a >= A || l[a] == 0 {
			continue // outside the network's actions, or a probability that underflowed to 0
		}
		u -= l[a]
		if u <= 0 {
			return a
		}
		last = a
	}
	return last // rounding left a sliver of the draw: the last move that has a probability
}

// Act implements bots.Bot.
func (b *NetBot) Act(view *rules.State, legal []int) int {
	if len(legal) == 0 {
		return -1
	}
	b.grow(1)
	if !b.encodeRow(0, view, legal) {
		return legal[0]
	}
	b.net.Forward(&b.wss[0], 1, b.obs, b.mask, b.logits, nil)
	return b.choose(0, legal, b.temperature(view))
}

// ActBatch implements bots.BatchBot: one network call for all views. The rows are split
// over len(b.wss) goroutines, each encoding and evaluating its share.
func (b *NetBot) ActBatch(views []*rules.State, legal [][]int, out []int) {
	n := len(views)
	b.grow(n)
	if !b.encodeBatch(views, legal) {
		for i := range n {
			out[i] = b.Act(views[i], legal[i])
		}
		return
	}
	for i := range n {
		out[i] = b.choose(i, legal[i], b.temperature(views[i]))
	}
}

// encodeBatch encodes every row and runs the network on them, in parallel when the batch is
// large enough; false when a row cannot be played by the network (no legal action, options
// it was not trained for, an encoding error), leaving ActBatch to play row by row.
func (b *NetBot) encodeBatch(views []*rules.State, legal [][]int) bool {
	n := len(views)
	if n == 0 || b.useGame(views[0].Game()) != nil {
		return false
	}
	for i := range n {
		if len(legal[i]) == 0 || !sameGameOptions(b.encOpts, views[i].Game().Options()) {
			return false
		}
	}
	workers := len(b.wss)
	if workers < 2 || n < 2*workers {
		for i := range n {
			if !b.encodeRow(i, views[i], legal[i]) {
				return false
			}
		}
		b.net.Forward(&b.wss[0], n, b.obs, b.mask, b.logits, nil)
		return true
	}
	for len(b.encs) < workers-1 {
		b.encs = append(b.encs, encoding.NewEncoderWith(views[0].Game(), b.encVar))
	}
	cfg := b.net.Config()
	D, A := cfg.ObsDim, cfg.NumActions
	per := (n + workers - 1) / workers
	if len(b.errs) < workers {
		b.errs = make([]error, workers)
	}
	errs := b.errs[:workers]
	clear(errs)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*per, min((w+1)*per, n)
		if lo >= hi {
			break
		}
		enc := b.enc
		if w > 0 {
			enc = b.encs[w-1]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				if err := b.encodeRowWith(enc, i, views[i], legal[i]); err != nil {
					errs[w] = err
					return
				}
			}
			b.net.Forward(&b.wss[w], hi-lo, b.obs[lo*D:hi*D], b.mask[lo*A:hi*A], b.logits[lo*A:hi*A], nil)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.err = err
			return false
		}
	}
	return true
}

// loadCache keeps bot files loaded by path so tournaments load each file once.
var loadCache sync.Map // path -> *BotFile

// LoadBotForGame loads the bot file at path (cached) and makes a bot for games with opts.
func LoadBotForGame(path string, opts rules.Options, seed uint64) (*NetBot, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("training: %w%s", err, movedModelHint(path, err))
	}
	key := fmt.Sprintf("%s|%d|%d", path, st.Size(), st.ModTime().UnixNano())
	var f *BotFile
	if v, ok := loadCache.Load(key); ok {
		f = v.(*BotFile)
	} else {
		if f, err = ReadBotFile(path); err != nil {
			return nil, err
		}
		loadCache.Store(key, f)
	}
	return NewNetBot(path, f, &opts, seed)
}

// The shipped trained bots are the "default" entries of the models manifest (models/MANIFEST.json,
// embedded with the files by package models): default.bot (4 players) and default-<N>p.bot,
// default-classic*.bot and default-modules*.bot for the other games.

var (
	defaultOnce  sync.Once
	defaultFiles []*BotFile
	defaultErr   error
)

// defaultNames lists the shipped bot files of the "default" bot in the manifest's order,
// default.bot (4 players) first.
func defaultNames() ([]string, error) {
	m, err := models.Load()
	if err != nil {
		return nil, fmt.Errorf("training: %w", err)
	}
	var names []string
	for _, e := range m.Shipped(bots.DefaultName) {
		names = append(names, e.File)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("training: this build has no embedded default bot")
	}
	return names, nil
}

// DefaultBots returns every shipped trained bot file (embedded in the binary), 4 players first.
// The files are read and checked on the first call, not when the program starts.
func DefaultBots() ([]*BotFile, error) {
	defaultOnce.Do(func() {
		names, err := defaultNames()
		if err != nil {
			defaultErr = err
			return
		}
		for _, n := range names {
			data, err := models.ReadFile(n)
			if err != nil {
				defaultErr = fmt.Errorf("training: embedded %s: %w", n, err)
				return
			}
			f, err := ReadBot(bytes.NewReader(data))
			if err != nil {
				defaultErr = fmt.Errorf("training: embedded %s: %w", n, err)
				return
			}
			defaultFiles = append(defaultFiles, f)
		}
	})
	return defaultFiles, defaultErr
}

// defaultHeaders reads only the headers of the shipped bot files, in DefaultBots' order: enough
// to describe them without reading and checking megabytes of weights at every start.
func defaultHeaders() ([]BotHeader, error) {
	names, err := defaultNames()
	if err != nil {
		return nil, err
	}
	hs := make([]BotHeader, len(names))
	for i, n := range names {
		f, err := models.Open(n)
		if err != nil {
			return nil, fmt.Errorf("training: embedded %s: %w", n, err)
		}
		err = readHeader(f, botMagic, &hs[i])
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("training: embedded %s: %w", n, err)
		}
	}
	return hs, nil
}

// DefaultBot returns the shipped trained bot file for 4-player base games, or an error when
// this build has none.
func DefaultBot() (*BotFile, error) {
	files, err := DefaultBots()
	if err != nil {
		return nil, err
	}
	return files[0], nil
}

// DefaultBotFor returns the shipped trained bot file made for games with opts (the seed and
// turn limit aside). When none fits, the error wraps ErrIncompatible and lists the option
// sets that have a model.
func DefaultBotFor(opts rules.Options) (*BotFile, error) {
	files, err := DefaultBots()
	if err != nil {
		return nil, err
	}
	f, have, err := fileForOptions(files, opts, fmt.Sprintf("the embedded %q bot", bots.DefaultName))
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("%w: the %q bot has no model for %s (it has models for %s; train one as docs/TRAINING.md describes and play its .bot file)",
			ErrIncompatible, bots.DefaultName, describeOptions(opts), strings.Join(have, ", "))
	}
	return f, nil
}

// fileForOptions returns the first of files made for games with opts, checked against this
// build's encoding and action layout (an error saying that what needs retraining when it no
// longer fits), or nil and the games the files are for.
func fileForOptions(files []*BotFile, opts rules.Options, what string) (*BotFile, []string, error) {
	g, err := rules.NewGame(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("training: %w", err)
	}
	size, layout := encoding.NewEncoder(g).Size(), CurrentActionLayout()
	var have []string
	for _, f := range files {
		if !sameRulesOptions(f.Header.Rules, opts) {
			have = append(have, describeOptions(f.Header.Rules))
			continue
		}
		if err := f.CheckCompatible(encoding.Version, size, layout, opts); err != nil {
			return nil, have, fmt.Errorf("%w (%s needs retraining: docs/TRAINING.md)", err, what)
		}
		return f, have, nil
	}
	return nil, have, nil
}

// valueFiles caches the embedded value networks by file, each read once.
var valueFiles sync.Map // file under models/ -> *BotFile

// ValueBotFor returns the embedded value network named name (a models/MANIFEST.json entry of
// status "value", such as "value-4p") made for games with opts: the search's value=NAME. ok
// is false when no value network has that name; err says when one has it but none of them
// fits the options (the levels fall back to their next agent then).
func ValueBotFor(name string, opts rules.Options) (f *BotFile, ok bool, err error) {
	m, err := models.Load()
	if err != nil {
		return nil, false, fmt.Errorf("training: %w", err)
	}
	entries := m.Values(name)
	if len(entries) == 0 {
		return nil, false, nil
	}
	files := make([]*BotFile, len(entries))
	for i, e := range entries {
		if v, ok := valueFiles.Load(e.File); ok {
			files[i] = v.(*BotFile)
			continue
		}
		data, err := models.ReadFile(e.File)
		if err != nil {
			return nil, true, fmt.Errorf("training: value network %s: %w", name, err)
		}
		if files[i], err = ReadBot(bytes.NewReader(data)); err != nil {
			return nil, true, fmt.Errorf("training: embedded %s: %w", e.File, err)
		}
		valueFiles.Store(e.File, files[i])
	}
	got, have, err := fileForOptions(files, opts, fmt.Sprintf("the value network %q", name))
	if err != nil {
		return nil, true, err
	}
	if got == nil {
		return nil, true, fmt.Errorf("%w: the value network %q has no model for %s (it has %s)",
			ErrIncompatible, name, describeOptions(opts), strings.Join(have, ", "))
	}
	return got, true, nil
}

// describeModels lists the games the models are for, grouped by rules and modules:
// "base 3/4/5 players, classic 4 players, base + all modules 4 players".
func describeModels(headers []BotHeader) string {
	players := map[string][]int{}
	var groups []string
	for _, h := range headers {
		o := h.Rules
		g := o.Variant.String()
		if o.Modules == rules.AllModules {
			g += " + all modules"
		} else if o.Modules != 0 {
			g += " + " + o.Modules.String()
		}
		if _, ok := players[g]; !ok {
			groups = append(groups, g)
		}
		players[g] = append(players[g], o.Players)
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		ps := players[g]
		slices.Sort(ps)
		s := make([]string, len(ps))
		for k, p := range ps {
			s[k] = strconv.Itoa(p)
		}
		parts[i] = g + " " + strings.Join(s, "/") + " players"
	}
	return strings.Join(parts, ", ")
}

func init() {
	bots.RegisterFileLoader(func(path string, opts rules.Options, seed uint64) (bots.Bot, error) {
		return LoadBotForGame(path, opts, seed)
	})
	// Only the headers are read here; the weights are read on the first game that uses them.
	hs, err := defaultHeaders()
	if err != nil {
		return
	}
	_ = bots.Register(bots.DefaultName, "the shipped trained networks ("+hs[0].Training.Method+"), standard length, for "+describeModels(hs),
		func(opts rules.Options, seed uint64) (bots.Bot, error) {
			f, err := DefaultBotFor(opts)
			if err != nil {
				return nil, err
			}
			return NewNetBot(bots.DefaultName, f, &opts, seed)
		})
}
