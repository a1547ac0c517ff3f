// When the Parquet and Arrow datasets were played from the same plan (seed, games, agents,
// rules), their statistics must be identical: the format changes nothing but the bytes.
// Usage: node same_games_check.mjs PARQUET_DIR ARROW_DIR PARQUET_STATS ARROW_STATS
import { readFileSync } from 'node:fs';
import { Checker, readManifest } from './common.mjs';

const [pqDir, arDir, pqStats, arStats] = process.argv.slice(2);
const a = readManifest(pqDir);
const b = readManifest(arDir);
const plan = (m) => JSON.stringify([m.seed, m.games, m.games_per_shard, m.agents, m.meta.rules_options, m.meta.reward]);
if (plan(a) !== plan(b)) {
  console.log('formats: the two datasets come from different plans; cross-format comparison skipped');
  process.exit(0);
}
const s = JSON.parse(readFileSync(pqStats, 'utf8'));
const t = JSON.parse(readFileSync(arStats, 'utf8'));
const c = new Checker('parquet vs arrow');
for (const k of ['games', 'steps', 'wins_by_seat', 'by_agent', 'end_reasons', 'actions_by_phase', 'produced_prices', 'mean_turns']) {
  c.equal(k, s[k], t[k]);
}
c.finish();
