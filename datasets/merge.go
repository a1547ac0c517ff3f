package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// ErrMerge is wrapped by every refusal of Merge: parts that do not belong together, games
// missing or held twice, files that do not match their manifest.
var ErrMerge = errors.New("datasets: cannot merge")

// MergeOptions configure Merge.
type MergeOptions struct {
	// Copy copies every shard file into the output directory (verifying each file's SHA-256
	// as it goes), so the merged dataset stands alone. Without it every part directory must
	// lie inside the output directory and only the manifest is written: it names each file
	// in its part's directory (part/steps-00000.arrow).
	Copy bool
}

// Merge joins the parts of one run (directories written by selfplay --shard, or any datasets
// of the same plan) into one dataset in out whose manifest lists every shard of the plan. It
// refuses parts whose settings differ (format, compression, seed, games, shard size, agents,
// rules options, encoding, reward, policy columns, tool version), a shard held by two
// directories, shards held by none (naming the games missing and the part that should have
// written them), and any file whose size or SHA-256 differs from its part's manifest. Nothing
// is written before every check has passed, except copied files (each written under a
// temporary name and renamed once verified); sizes, and files already in out where copies
// would go, are checked before the first copy. A manifest already in out is replaced only if
// an earlier Merge wrote it.
func Merge(out string, dirs []string, o MergeOptions) (*Manifest, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrMerge, fmt.Sprintf(format, args...))
	}
	if len(dirs) == 0 {
		return nil, bad("no part directories named")
	}
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	if st, err := os.Stat(out); err == nil && !st.IsDir() {
		return nil, bad("%s is a file, not a directory; name a new or merged dataset directory", out)
	}
	if old, err := ReadManifest(out); err == nil && len(old.MergedFrom) == 0 {
		return nil, bad("%s already holds a dataset that merge did not write; merge into another directory", out)
	} else if err != nil && !errors.Is(err, ErrNoManifest) {
		return nil, bad("%s holds a manifest that does not read (%v); not replacing it", out, err)
	}

	type part struct {
		dir, rel string
		m        *Manifest
	}
	parts := make([]part, 0, len(dirs))
	seen := map[string]string{}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("datasets: %w", err)
		}
		if prev, ok := seen[abs]; ok {
			return nil, bad("%s is named twice (also as %s)", d, prev)
		}
		seen[abs] = d
		if abs == outAbs {
			return nil, bad("%s is the output directory itself; name the part directories", d)
		}
		m, err := ReadManifest(d)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrMerge, d, err)
		}
		if len(m.MergedFrom) != 0 {
			return nil, bad("%s is itself a merged dataset; name its parts (%s) instead", d, strings.Join(m.MergedFrom, ", "))
		}
		p := part{dir: d, m: m}
		if !o.Copy {
			rel, err := filepath.Rel(outAbs, abs)
			if err != nil || !filepath.IsLocal(rel) {
				return nil, bad("%s is not inside %s: put the parts inside the output directory, or add --copy to copy their files", d, out)
			}
			p.rel = filepath.ToSlash(rel)
		}
		parts = append(parts, p)
	}
	first := parts[0]
	for _, p := range parts[1:] {
		if d := planDiff(p.m, first.m); d != "" {
			return nil, bad("%s has %s (as %s); parts of one run share every setting", p.dir, d, first.dir)
		}
	}

	// Every shard of the plan exactly once: sort the shards of all parts by index, then
	// duplicates are neighbours and missing shards are the gaps.
	m0 := first.m
	n := m0.NumShards()
	type held struct{ k, part int }
	var all []held
	for pi, p := range parts {
		for _, s := range p.m.Shards {
			all = append(all, held{s.Index, pi})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].k < all[j].k || (all[i].k == all[j].k && all[i].part < all[j].part) })
	var missing []string
	nMissing := 0
	gap := func(lo, hi int) { // shards [lo, hi)
		nMissing += hi - lo
		f, _ := m0.ShardRange(lo)
		l, c := m0.ShardRange(hi - 1)
		msg := fmt.Sprintf("games [%d,%d) (shards %d-%d)", f, l+uint64(c), lo, hi-1)
		if lo == hi-1 {
			msg = fmt.Sprintf("games [%d,%d) (shard %d)", f, l+uint64(c), lo)
		}
		var who []string
		for _, p := range parts {
			if plo, phi := p.m.OwnedShards(); p.m.Part != nil && plo < hi && lo < phi {
				who = append(who, fmt.Sprintf("part %s in %s", p.m.Part, p.dir))
			}
		}
		if len(who) > 0 {
			msg += ": " + strings.Join(who, ", ") + " is unfinished (continue it with --resume)"
		} else {
			msg += ": no directory named holds them"
		}
		missing = append(missing, msg)
	}
	next := 0
	for i, h := range all {
		if i > 0 && all[i-1].k == h.k {
			f, c := m0.ShardRange(h.k)
			return nil, bad("shard %d (games [%d,%d)) is in both %s and %s", h.k, f, f+uint64(c), parts[all[i-1].part].dir, parts[h.part].dir)
		}
		if h.k > next {
			gap(next, h.k)
		}
		next = h.k + 1
	}
	if next < n {
		gap(next, n)
	}
	if len(missing) > 0 {
		if len(missing) > 8 {
			missing = append(missing[:8], fmt.Sprintf("and %d more ranges", len(missing)-8))
		}
		return nil, bad("%d of %d shards missing: %s", nMissing, n, strings.Join(missing, "; "))
	}

	// Cheap checks of every file before writing anything: a part's file of the wrong size,
	// or a file in out of the wrong size where a copy would go, stops the merge before the
	// first copy (the digests are checked while copying).
	for _, p := range parts {
		for _, s := range p.m.Shards {
			for _, f := range []struct {
				name string
				size int64
			}{{s.StepsFile, s.StepsBytes}, {s.GamesFile, s.GamesBytes}} {
				src := filepath.Join(p.dir, f.name)
				st, err := os.Stat(src)
				if err != nil {
					return nil, fmt.Errorf("%w: %w", ErrMerge, err)
				}
				if st.Size() != f.size {
					return nil, bad("%s has %d bytes, its manifest says %d (truncated or overwritten)", src, st.Size(), f.size)
				}
				if !o.Copy {
					continue
				}
				dst := filepath.Join(out, f.name)
				if dt, err := os.Stat(dst); err == nil && (!dt.Mode().IsRegular() || dt.Size() != f.size) {
					return nil, bad("%s exists and is not a copy of %s; not overwriting it", dst, src)
				}
			}
		}
	}

	merged := &Manifest{
		Version: ManifestVersion, Format: m0.Format, Compression: m0.Compression, Seed: m0.Seed,
		Games: m0.Games, GamesPerShard: m0.GamesPerShard, Agents: slices.Clone(m0.Agents),
		AgentFiles: slices.Clone(m0.AgentFiles), Meta: m0.Meta,
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	for _, p := range parts {
		from := p.rel
		if o.Copy {
			if from, err = filepath.Abs(p.dir); err != nil {
				return nil, fmt.Errorf("datasets: %w", err)
			}
		}
		merged.MergedFrom = append(merged.MergedFrom, from)
		for _, s := range p.m.Shards {
			for _, f := range []struct {
				name *string
				size int64
				sum  *string
			}{{&s.StepsFile, s.StepsBytes, &s.StepsSHA256}, {&s.GamesFile, s.GamesBytes, &s.GamesSHA256}} {
				src := filepath.Join(p.dir, *f.name)
				var err error
				if o.Copy {
					*f.sum, err = copyVerified(src, filepath.Join(out, *f.name), f.size, *f.sum)
				} else {
					*f.sum, err = sumFile(src, f.size, *f.sum)
					*f.name = p.rel + "/" + *f.name
				}
				if err != nil {
					return nil, err
				}
			}
			merged.AddShard(s)
		}
	}
	if err := merged.Validate(); err != nil {
		return nil, err
	}
	if err := WriteManifest(out, merged); err != nil {
		return nil, err
	}
	return merged, nil
}

// planDiff says how manifest a's run differs from b's ("" when they are parts of one run).
func planDiff(a, b *Manifest) string {
	am, bm := &a.Meta, &b.Meta
	switch {
	case a.Format != b.Format:
		return fmt.Sprintf("format %s, not %s", a.Format, b.Format)
	case a.Compression != b.Compression:
		return fmt.Sprintf("compression %s, not %s", a.Compression, b.Compression)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seed %d, not %d", a.Seed, b.Seed)
	case a.Games != b.Games:
		return fmt.Sprintf("%d games, not %d", a.Games, b.Games)
	case a.GamesPerShard != b.GamesPerShard:
		return fmt.Sprintf("%d games per shard, not %d", a.GamesPerShard, b.GamesPerShard)
	case !slices.Equal(a.Agents, b.Agents):
		return fmt.Sprintf("agents %s, not %s", strings.Join(a.Agents, ","), strings.Join(b.Agents, ","))
	case !slices.Equal(a.AgentFiles, b.AgentFiles):
		return fmt.Sprintf("agent networks %v, not %v (another network under the same name)", a.AgentFiles, b.AgentFiles)
	case string(am.RulesOptions) != string(bm.RulesOptions):
		return fmt.Sprintf("options %s, not %s", am.RulesOptions, bm.RulesOptions)
	case am.EncodingVersion != bm.EncodingVersion || am.ObsDim != bm.ObsDim || !slices.Equal(am.Features, bm.Features):
		return fmt.Sprintf("encoding %s (%d floats), not %s (%d floats)", am.EncodingVersion, am.ObsDim, bm.EncodingVersion, bm.ObsDim)
	case am.NumActions != bm.NumActions || !slices.Equal(am.ActionNames, bm.ActionNames) || !slices.Equal(am.PhaseNames, bm.PhaseNames):
		return fmt.Sprintf("%d action names, not %d (another rules build)", am.NumActions, bm.NumActions)
	case am.Seats != bm.Seats:
		return fmt.Sprintf("%d seats, not %d", am.Seats, bm.Seats)
	case am.Reward != bm.Reward:
		return fmt.Sprintf("reward %q, not %q", am.Reward, bm.Reward)
	case am.Policy != bm.Policy || am.Value != bm.Value:
		return fmt.Sprintf("policy columns %v, not %v", am.Policy, bm.Policy)
	case am.ToolVersion != bm.ToolVersion:
		return fmt.Sprintf("tool version %s, not %s", am.ToolVersion, bm.ToolVersion)
	}
	return ""
}

// sumFile checks path's size and, when want is set, its SHA-256; it returns the digest.
func sumFile(path string, size int64, want string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrMerge, err)
	}
	defer f.Close()
	return hashCheck(path, f, io.Discard, size, want)
}

// hashCheck copies r to w, hashing it, and compares the size and digest with the manifest's.
func hashCheck(path string, r io.Reader, w io.Writer, size int64, want string) (string, error) {
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), r)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrMerge, path, err)
	}
	if n != size {
		return "", fmt.Errorf("%w: %s has %d bytes, its manifest says %d (truncated or overwritten)", ErrMerge, path, n, size)
	}
	got := hex.EncodeToString(h.Sum(nil))
	if want != "" && got != want {
		return "", fmt.Errorf("%w: %s: SHA-256 %s does not match its manifest's %s", ErrMerge, path, got, want)
	}
	return got, nil
}

// copyVerified copies src to dst (temporary name, sync, rename), checking the copy against
// the manifest's size and digest. A dst already holding exactly those bytes is kept; any other
// dst is refused.
func copyVerified(src, dst string, size int64, want string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrMerge, err)
	}
	defer in.Close()
	if st, err := os.Stat(dst); err == nil {
		if si, err := in.Stat(); err == nil && os.SameFile(st, si) {
			return hashCheck(src, in, io.Discard, size, want)
		}
		got, err := sumFile(dst, size, want)
		if err != nil || (want == "" && !sameContent(src, got)) {
			return "", fmt.Errorf("%w: %s exists and is not a copy of %s; not overwriting it", ErrMerge, dst, src)
		}
		return hashCheck(src, in, io.Discard, size, got)
	}
	tmp := dst + tmpSuffix
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrMerge, err)
	}
	sum, err := hashCheck(src, in, f, size, want)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, dst)
	}
	if err != nil {
		os.Remove(tmp)
		if !errors.Is(err, ErrMerge) {
			err = fmt.Errorf("%w: %w", ErrMerge, err)
		}
		return "", err
	}
	return sum, nil
}

// sameContent reports whether src's SHA-256 is sum.
func sameContent(src, sum string) bool {
	f, err := os.Open(src)
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == sum
}
