// Shared helpers of the interop checks: read the manifest, compare numbers, report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function readManifest(dir) {
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  if (m.manifest_version !== 1) throw new Error(`${dir}: manifest version ${m.manifest_version}, want 1`);
  return m;
}

// shardFiles lists the complete shards' files of one table ("steps" or "games").
export function shardFiles(dir, m, table) {
  return m.shards.map((s) => join(dir, table === 'steps' ? s.steps_file : s.games_file));
}

// decisionsByPhase sums `container dataset stats --json`'s actions_by_phase per phase name.
export function decisionsByPhase(stats) {
  return Object.fromEntries(Object.keys(stats.actions_by_phase).sort().map(
    (p) => [p, Object.values(stats.actions_by_phase[p]).reduce((a, b) => a + b, 0)]));
}

// canonical renders a value as JSON with object keys sorted, so key order never matters.
function canonical(v) {
  if (typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  if (v && typeof v === 'object') {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

export class Checker {
  constructor(name) {
    this.name = name;
    this.failures = 0;
    this.checks = 0;
  }
  equal(what, got, want) {
    this.checks++;
    const g = canonical(got);
    const w = canonical(want);
    if (g !== w) {
      this.failures++;
      console.error(`${this.name}: MISMATCH ${what}: independent reader says ${g}, container says ${w}`);
    } else {
      console.log(`${this.name}: ok ${what} = ${g.length > 120 ? g.slice(0, 117) + '...' : g}`);
    }
  }
  finish() {
    if (this.failures > 0) {
      console.error(`${this.name}: ${this.failures} of ${this.checks} checks failed`);
      process.exit(1);
    }
    console.log(`${this.name}: all ${this.checks} checks passed`);
  }
}

// winsBySeat turns {seat: count} into an array of length seats.
export function seatArray(counts, seats) {
  const out = new Array(seats).fill(0);
  for (const [seat, n] of Object.entries(counts)) out[Number(seat)] = Number(n);
  return out;
}
