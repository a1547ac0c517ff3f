// Reads a Parquet dataset with DuckDB (an independent Parquet reader) and checks it against
// `container dataset stats --json`: game count, step count, wins by seat and by agent, game
// lengths against step rows, and the observation width.
// Usage: node duckdb_check.mjs DATASET_DIR STATS_JSON
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { Checker, decisionsByPhase, readManifest, seatArray, shardFiles } from './common.mjs';

const [dir, statsPath] = process.argv.slice(2);
if (!dir || !statsPath) {
  console.error('usage: node duckdb_check.mjs DATASET_DIR STATS_JSON');
  process.exit(2);
}
const stats = JSON.parse(readFileSync(statsPath, 'utf8'));
const m = readManifest(dir);
if (m.format !== 'parquet') throw new Error(`${dir}: format ${m.format}, want parquet`);
const list = (files) => '[' + files.map((f) => `'${f.replaceAll("'", "''")}'`).join(', ') + ']';
const games = `read_parquet(${list(shardFiles(dir, m, 'games'))})`;
const steps = `read_parquet(${list(shardFiles(dir, m, 'steps'))})`;

const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
const rows = async (sql) => (await conn.runAndReadAll(sql)).getRowObjects();
const one = async (sql) => Object.values((await rows(sql))[0])[0];

const c = new Checker('duckdb');
c.equal('games', await one(`SELECT count(*) FROM ${games}`), stats.games);
c.equal('steps', await one(`SELECT count(*) FROM ${steps}`), stats.steps);
c.equal('sum of game lengths = steps', await one(`SELECT sum(length) FROM ${games}`), stats.steps);

const seatRows = await rows(`SELECT w AS seat, count(*) AS n FROM (SELECT unnest(winners) AS w FROM ${games}) GROUP BY w`);
c.equal('wins by seat', seatArray(Object.fromEntries(seatRows.map((r) => [r.seat, r.n])), stats.seats), stats.wins_by_seat);

const agentRows = await rows(`SELECT agents[w + 1] AS agent, count(*) AS n FROM (SELECT agents, unnest(winners) AS w FROM ${games}) GROUP BY agent ORDER BY agent`);
const agentWins = Object.fromEntries(agentRows.map((r) => [r.agent, Number(r.n)]));
const wantAgentWins = Object.fromEntries(Object.keys(stats.by_agent).sort().map((a) => [a, stats.by_agent[a].wins]));
for (const a of Object.keys(wantAgentWins)) agentWins[a] ??= 0;
c.equal('wins by agent', agentWins, wantAgentWins);

c.equal('observation width', await one(`SELECT DISTINCT len(obs) FROM ${steps}`), m.meta.obs_dim);
c.equal('returns width', await one(`SELECT DISTINCT len(returns) FROM ${steps}`), m.meta.seats);
c.equal('steps per game match the games table', await one(
  `SELECT count(*) FROM (SELECT game_id, count(*) AS n FROM ${steps} GROUP BY game_id) s JOIN ${games} g USING (game_id) WHERE s.n <> g.length`), 0);
c.equal('one done step per game', await one(`SELECT count(*) FROM ${steps} WHERE done`), stats.games);
// Dataset layout 2 stores the phase by name (a dictionary-encoded string), so SQL filters
// and groups by the name itself.
const byPhase = await rows(`SELECT phase, count(*) AS n FROM ${steps} GROUP BY phase ORDER BY phase`);
c.equal('decisions by phase name', Object.fromEntries(byPhase.map((r) => [r.phase, Number(r.n)])), decisionsByPhase(stats));
c.equal("rows WHERE phase = 'delivery-bid'", Number(await one(`SELECT count(*) FROM ${steps} WHERE phase = 'delivery-bid'`)),
  decisionsByPhase(stats)['delivery-bid'] ?? 0);
const md = await rows(`SELECT value FROM parquet_kv_metadata(${list(shardFiles(dir, m, 'steps').slice(0, 1))}) WHERE decode(key) = 'container.encoding_version'`);
c.equal('encoding version in the file metadata', md.length ? new TextDecoder().decode(md[0].value.bytes ?? md[0].value) : null, stats.encoding_version);
c.finish();
