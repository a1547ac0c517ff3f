// Reads an Arrow IPC dataset with the apache-arrow JavaScript library (an independent Arrow
// reader; zstd buffers are decoded with fzstd, LZ4 frame buffers with lz4js) and checks it
// against `container dataset stats --json`.
// Usage: node arrow_check.mjs DATASET_DIR STATS_JSON
import { readFileSync } from 'node:fs';
import { tableFromIPC, compressionRegistry, CompressionType } from 'apache-arrow';
import { decompress as zstdDecompress } from 'fzstd';
import lz4 from 'lz4js';
import { Checker, decisionsByPhase, readManifest, seatArray, shardFiles } from './common.mjs';

// fzstd may return a view into a larger buffer; typed arrays over it need an aligned start,
// so every decoded buffer gets its own ArrayBuffer.
compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => Uint8Array.from(zstdDecompress(data)) });
compressionRegistry.set(CompressionType.LZ4_FRAME, { decode: (data) => Uint8Array.from(lz4.decompress(data)) });

const [dir, statsPath] = process.argv.slice(2);
if (!dir || !statsPath) {
  console.error('usage: node arrow_check.mjs DATASET_DIR STATS_JSON');
  process.exit(2);
}
const stats = JSON.parse(readFileSync(statsPath, 'utf8'));
const m = readManifest(dir);
if (m.format !== 'arrow') throw new Error(`${dir}: format ${m.format}, want arrow`);

const c = new Checker('apache-arrow');
let games = 0;
let lengths = 0;
const winsBySeat = {};
const winsByAgent = {};
for (const f of shardFiles(dir, m, 'games')) {
  const t = tableFromIPC(readFileSync(f));
  games += t.numRows;
  for (const row of t) {
    lengths += row.length;
    const agents = [...row.agents];
    for (const w of row.winners) {
      winsBySeat[w] = (winsBySeat[w] ?? 0) + 1;
      winsByAgent[agents[w]] = (winsByAgent[agents[w]] ?? 0) + 1;
    }
  }
}
let steps = 0;
let done = 0;
let obsWidth = null;
let encoding = null;
const byPhase = {};
for (const f of shardFiles(dir, m, 'steps')) {
  const t = tableFromIPC(readFileSync(f));
  encoding = t.schema.metadata.get('container.encoding_version');
  const obsType = t.schema.fields.find((x) => x.name === 'obs').type;
  obsWidth = obsType.listSize;
  steps += t.numRows;
  const d = t.getChild('done');
  for (let i = 0; i < d.length; i++) if (d.get(i)) done++;
  // Dataset layout 2: the phase column is a dictionary of phase names, read as strings.
  const ph = t.getChild('phase');
  for (let i = 0; i < ph.length; i++) byPhase[ph.get(i)] = (byPhase[ph.get(i)] ?? 0) + 1;
  if (t.numRows > 0) {
    const first = t.getChild('obs').get(0);
    if (first.length !== obsWidth) throw new Error(`${f}: first observation has ${first.length} floats`);
  }
}
c.equal('games', games, stats.games);
c.equal('steps', steps, stats.steps);
c.equal('sum of game lengths = steps', lengths, stats.steps);
c.equal('one done step per game', done, stats.games);
c.equal('wins by seat', seatArray(winsBySeat, stats.seats), stats.wins_by_seat);
const wantAgentWins = Object.fromEntries(Object.keys(stats.by_agent).sort().map((a) => [a, stats.by_agent[a].wins]));
const gotAgentWins = Object.fromEntries(Object.keys(wantAgentWins).map((a) => [a, winsByAgent[a] ?? 0]));
c.equal('wins by agent', gotAgentWins, wantAgentWins);
c.equal('observation width (FixedSizeList size)', obsWidth, m.meta.obs_dim);
c.equal('decisions by phase name', byPhase, decisionsByPhase(stats));
c.equal('encoding version in the schema metadata', encoding, stats.encoding_version);
c.finish();
