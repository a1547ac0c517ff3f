// The Container web app: plain JavaScript, no build step. The server draws the board (SVG)
// from the seat's redacted view; this file only shows what the server sends and posts moves.

const $ = (id) => document.getElementById(id);

// api calls the server and returns the decoded JSON; errors show their message.
async function api(method, path, body, token) {
  const headers = {};
  // The server refuses a POST without it (a page on another site cannot send it unasked).
  if (body !== undefined || method === 'POST') headers['Content-Type'] = 'application/json';
  if (token) headers['X-Game-Token'] = token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

function showError(err) {
  const e = $('error');
  e.textContent = err ? String(err.message || err) : '';
  e.hidden = !err;
}

// guard runs an async action, showing its error instead of throwing.
function guard(fn) {
  return async (...args) => {
    try { showError(null); await fn(...args); } catch (err) { showError(err); }
  };
}

function el(tag, attrs = {}, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') n.className = v; else if (k.startsWith('on')) n.addEventListener(k.slice(2), v); else n.setAttribute(k, v);
  }
  for (const c of children) n.append(c);
  return n;
}

// ---- screens ----------------------------------------------------------------------------

function showScreen(name) {
  for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t.dataset.screen === name);
  $('screen-play').hidden = name !== 'play';
  $('screen-replay').hidden = name !== 'replay';
  if (name === 'replay') loadFiles().catch(showError);
}
for (const t of document.querySelectorAll('.tab')) t.addEventListener('click', () => showScreen(t.dataset.screen));

// ---- bots -------------------------------------------------------------------------------

let botList = [];

async function loadBots() {
  botList = await api('GET', '/api/bots');
  for (const sel of document.querySelectorAll('.bot-select')) fillBots(sel, 'default');
  renderOpponentPickers();
}

function fillBots(sel, preferred) {
  sel.replaceChildren(...botList.map((b) => el('option', { value: b.name, title: b.description }, b.name)));
  if (botList.some((b) => b.name === preferred)) sel.value = preferred;
}

function renderOpponentPickers() {
  const players = Number($('ng-players').value);
  const seatSel = $('ng-seat');
  const seat = Math.min(Number(seatSel.value || 0), players - 1);
  seatSel.replaceChildren(...Array.from({ length: players }, (_, i) => el('option', { value: i }, `p${i + 1}`)));
  seatSel.value = seat;
  const box = $('ng-opponents');
  const old = [...box.querySelectorAll('select')].map((s) => s.value);
  box.replaceChildren(el('span', {}, 'Opponents'));
  let k = 0;
  for (let i = 0; i < players; i++) {
    if (i === seat) continue;
    const sel = el('select', { class: 'opponent', 'aria-label': `bot for p${i + 1}` });
    fillBots(sel, old[k] || 'default');
    box.append(el('label', {}, `p${i + 1}`, sel));
    k++;
  }
}
$('ng-players').addEventListener('change', renderOpponentPickers);
$('ng-seat').addEventListener('change', renderOpponentPickers);

// ---- play -------------------------------------------------------------------------------

const game = { id: null, token: null, log: [], state: null };

$('new-game').addEventListener('submit', guard(async (ev) => {
  ev.preventDefault();
  const modules = [...document.querySelectorAll('.ng-module:checked')].map((c) => c.value).join(',');
  const req = {
    players: Number($('ng-players').value),
    seat: Number($('ng-seat').value),
    opponents: [...document.querySelectorAll('#ng-opponents select')].map((s) => s.value),
    variant: $('ng-variant').value,
    length: $('ng-length').value,
    modules,
    turn_limit: Number($('ng-turns').value || 0),
  };
  if ($('ng-seed').value !== '') req.seed = Number($('ng-seed').value);
  const st = await api('POST', '/api/games', req);
  game.id = st.id;
  game.token = st.token;
  game.log = [];
  sessionStorage.setItem('container-game', JSON.stringify({ id: game.id, token: game.token }));
  $('new-game').hidden = true;
  $('game').hidden = false;
  $('g-advice').replaceChildren();
  renderGame(st);
}));

$('g-new').addEventListener('click', () => {
  $('game').hidden = true;
  $('new-game').hidden = false;
});

async function playMove(text) {
  const t0 = performance.now();
  const st = await api('POST', `/api/games/${game.id}/move`, { move: text, since: game.log.length }, game.token);
  $('g-advice').replaceChildren();
  renderGame(st);
  document.body.dataset.moveMs = (performance.now() - t0).toFixed(1);
}

$('board').addEventListener('click', guard(async (ev) => {
  const t = ev.target.closest('[data-move]');
  if (t && game.state && game.state.your_move) await playMove(t.dataset.move);
}));

$('g-undo').addEventListener('click', guard(async () => {
  game.log = [];
  renderGame(await api('POST', `/api/games/${game.id}/undo`, undefined, game.token));
}));

$('g-ask').addEventListener('click', guard(async () => {
  const a = await api('POST', `/api/games/${game.id}/ask`, { bot: $('g-ask-bot').value }, game.token);
  renderAdvice($('g-advice'), a);
}));

$('g-view').addEventListener('click', guard(async () => {
  const res = await fetch(`/api/games/${game.id}/record`, { headers: { 'X-Game-Token': game.token } });
  if (!res.ok) throw new Error((await res.json()).error);
  const record = await res.json();
  showScreen('replay');
  await openReplay({ record });
}));

function renderGame(st) {
  game.state = st;
  // Tests wait for this counter to know an answer has been drawn.
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
  $('board').innerHTML = st.svg;
  $('g-options').textContent = `${st.options} · you are p${st.seat + 1}`;
  let status;
  if (st.over) status = 'Game over';
  else if (st.your_move) status = `Turn ${st.turn}: your decision (${st.phase})`;
  else status = `Turn ${st.turn}: p${st.decider + 1} decides ${st.phase}`;
  $('g-status').textContent = status;
  const moves = $('g-moves');
  moves.replaceChildren(...st.moves.map((m) => el('button', { type: 'button', 'data-move': m.text, onclick: guard(() => playMove(m.text)) }, m.text)));
  renderAmount(st.amount);
  $('g-undo').disabled = !st.can_undo;
  $('g-ask').disabled = !st.your_move;
  // The log grows at the end; after an undo the server sends it again from 0.
  game.log.length = Math.min(game.log.length, st.log_from);
  game.log.push(...st.log);
  renderLog($('g-log'), game.log.map((l) => ({ text: logText(l), cls: l.step < 0 ? 'reveal' : (l.text === 'sealed bid' ? 'hidden-move' : '') })), game.log.length - 1);
  $('g-over').hidden = !st.over;
  if (st.over) {
    renderScores($('g-scores'), st.scores);
    const a = $('g-download');
    a.href = '#';
    a.onclick = guard(async (ev) => {
      ev.preventDefault();
      const res = await fetch(`/api/games/${game.id}/record`, { headers: { 'X-Game-Token': game.token } });
      if (!res.ok) throw new Error((await res.json()).error);
      const url = URL.createObjectURL(await res.blob());
      const link = el('a', { href: url, download: `container-${game.id}.json` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    });
  }
}

// renderAmount offers the legal amounts as buttons (every amount for small ranges, a spread
// of them for large ones) and a number field for any other.
function renderAmount(a) {
  const box = $('g-amount');
  box.hidden = !a;
  if (!a) { box.replaceChildren(); return; }
  const values = new Set();
  if (a.max - a.min <= 12) for (let v = a.min; v <= a.max; v++) values.add(v);
  else {
    for (let v = a.min; v <= a.min + 8; v++) values.add(v);
    for (const f of [0.25, 0.5, 0.75]) values.add(Math.round(a.min + f * (a.max - a.min)));
    values.add(a.max);
  }
  const input = el('input', { type: 'number', min: a.min, max: a.max, value: a.min, 'aria-label': 'amount' });
  box.replaceChildren(
    el('span', {}, a.sealed ? 'Sealed bid:' : 'Amount:'),
    ...[...values].sort((x, y) => x - y).map((v) => el('button', { type: 'button', 'data-move': `$${v}`, onclick: guard(() => playMove(`$${v}`)) }, `$${v}`)),
    input,
    el('button', { type: 'button', onclick: guard(() => playMove(`$${input.value}`)) }, 'Bid'),
  );
}

function logText(l) {
  if (l.step < 0) return l.text;
  return `t${l.turn} p${l.seat + 1} ${l.phase}: ${l.text}`;
}

function renderLog(ol, items, current) {
  ol.replaceChildren(...items.map((it, i) => el('li', { class: it.cls + (i === current ? ' current' : '') }, it.text)));
  const cur = ol.children[current];
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function renderScores(table, scores) {
  const head = el('tr', {}, ...['seat', 'cash', 'island', 'left\u00adover', 'loans', 'total', 'rank'].map((h) => el('th', {}, h)));
  table.replaceChildren(head, ...scores.map((s) => el('tr', { class: s.winner ? 'winner' : '', 'data-seat': s.seat },
    el('td', {}, `p${s.seat + 1}${s.name ? ' ' + s.name : ''}`),
    ...[s.cash, s.island, s.leftover, s.loans, s.total, s.rank].map((v) => el('td', {}, String(v))))));
}

function renderAdvice(box, a) {
  const parts = [el('p', {}, `${a.bot} (as p${a.seat + 1}) plays `, el('code', {}, a.move))];
  if (a.top && a.top.length) {
    parts.push(el('table', {}, ...a.top.map((m) => {
      const bar = el('div', { class: 'bar' });
      bar.style.width = `${Math.max(1, Math.round(m.prob * 100))}%`;
      return el('tr', {}, el('td', {}, el('code', {}, m.move)), el('td', {}, `${(m.prob * 100).toFixed(1)}%`), el('td', { style: 'width:40%' }, bar));
    })));
  }
  if (a.values && a.values.length) {
    parts.push(el('p', {}, 'Value estimate: ' + a.values.map((v, i) => `p${i + 1} ${v.toFixed(2)}`).join(', ')));
  }
  parts.push(el('p', { class: 'small' }, a.explain));
  box.replaceChildren(...parts);
}

// ---- replay -----------------------------------------------------------------------------

const replay = { id: null, token: null, info: null, step: 0, viewer: -1, busy: false, pending: null };

async function loadFiles() {
  const f = await api('GET', '/api/files');
  // An empty list says so instead of showing a blank, narrow drop-down.
  const none = (what) => [el('option', { value: '' }, `(no ${what} under --data)`)];
  $('or-record').replaceChildren(...(f.records.length ? f.records.map((r) => el('option', { value: r }, r)) : none('records')));
  $('or-dataset').replaceChildren(...(f.datasets.length
    ? f.datasets.map((d) => el('option', { value: d.path }, `${d.path} (${d.games} games)`)) : none('datasets')));
  $('or-open-record').disabled = f.records.length === 0;
  $('or-open-dataset').disabled = f.datasets.length === 0;
}

$('or-open-record').addEventListener('click', guard(() => openReplay({ path: $('or-record').value })));
$('or-open-dataset').addEventListener('click', guard(() => openReplay({ dataset: $('or-dataset').value, game: Number($('or-game').value) })));
$('or-file').addEventListener('change', guard(async () => {
  const file = $('or-file').files[0];
  if (!file) return;
  let record;
  try { record = JSON.parse(await file.text()); } catch { throw new Error(`${file.name} is not a JSON game record`); }
  await openReplay({ record });
}));

async function openReplay(req) {
  const info = await api('POST', '/api/replays', req);
  replay.id = info.id;
  replay.token = info.token;
  replay.info = info;
  replay.viewer = info.finished ? -1 : 0;
  const sel = $('r-viewer');
  const opts = [];
  if (info.finished) opts.push(el('option', { value: -1 }, 'whole game'));
  for (let i = 0; i < info.players; i++) opts.push(el('option', { value: i }, `p${i + 1}${info.names[i] ? ' ' + info.names[i] : ''}`));
  sel.replaceChildren(...opts);
  sel.value = replay.viewer;
  $('r-source').textContent = `${info.source} · ${info.options} · ${info.moves} decisions`;
  $('r-slider').max = info.moves;
  $('r-turn').max = info.turn_starts.length;
  $('r-over').hidden = true;
  $('r-advice').replaceChildren();
  $('viewer').hidden = false;
  await gotoStep(0);
}

// gotoStep shows position n; steps asked for while one is loading collapse into the last.
async function gotoStep(n) {
  const info = replay.info;
  n = Math.max(0, Math.min(info.moves, n));
  if (replay.busy) { replay.pending = n; return; }
  replay.busy = true;
  const t0 = performance.now();
  try {
    const st = await api('GET', `/api/replays/${replay.id}/step/${n}?viewer=${replay.viewer}`, undefined, replay.token);
    replay.step = n;
    $('r-board').innerHTML = st.svg;
    $('r-status').textContent = st.decider >= 0
      ? `Step ${n} of ${info.moves} · turn ${st.turn} · p${st.decider + 1} decides ${st.phase}`
      : `Step ${n} of ${info.moves} · turn ${st.turn} · game over`;
    $('r-slider').value = n;
    $('r-turn').value = st.turn;
    renderReplayLog(n);
    const atEnd = n === info.moves;
    $('r-over').hidden = !(atEnd && info.finished);
    if (atEnd && info.finished) renderScores($('r-scores'), info.scores);
    $('r-prev').disabled = $('r-first').disabled = $('r-prev-turn').disabled = n === 0;
    $('r-next').disabled = $('r-last').disabled = $('r-next-turn').disabled = atEnd;
    // Tests read how long the step took, from the click to the board drawn.
    document.body.dataset.stepMs = (performance.now() - t0).toFixed(1);
    document.body.dataset.replayStep = String(n);
  } finally {
    replay.busy = false;
  }
  if (replay.pending !== null) {
    const p = replay.pending;
    replay.pending = null;
    await gotoStep(p);
  }
}

// renderReplayLog lists the moves made before the current step; another seat's sealed bid
// reads "sealed bid" until its round closed (for a seat's view).
function renderReplayLog(n) {
  const v = replay.viewer;
  const items = replay.info.log.slice(0, n).map((l) => {
    const hidden = v >= 0 && l.seat !== v && l.reveal > n;
    return { text: `t${l.turn} p${l.seat + 1} ${l.phase}: ${hidden ? 'sealed bid' : l.text}`, cls: hidden ? 'hidden-move' : '' };
  });
  renderLog($('r-log'), items, items.length - 1);
}

function turnIndex(n) {
  const ts = replay.info.turn_starts;
  let k = 0;
  while (k + 1 < ts.length && ts[k + 1] <= n) k++;
  return k;
}

$('r-first').addEventListener('click', guard(() => gotoStep(0)));
$('r-last').addEventListener('click', guard(() => gotoStep(replay.info.moves)));
$('r-prev').addEventListener('click', guard(() => gotoStep(replay.step - 1)));
$('r-next').addEventListener('click', guard(() => gotoStep(replay.step + 1)));
$('r-next-turn').addEventListener('click', guard(() => {
  const ts = replay.info.turn_starts;
  const k = turnIndex(replay.step);
  return gotoStep(k + 1 < ts.length ? ts[k + 1] : replay.info.moves);
}));
$('r-prev-turn').addEventListener('click', guard(() => {
  const ts = replay.info.turn_starts;
  const k = turnIndex(replay.step);
  return gotoStep(ts[k] < replay.step ? ts[k] : ts[Math.max(0, k - 1)]);
}));
$('r-slider').addEventListener('input', guard(() => gotoStep(Number($('r-slider').value))));
$('r-jump').addEventListener('click', guard(() => {
  const ts = replay.info.turn_starts;
  const t = Math.max(1, Math.min(ts.length, Number($('r-turn').value)));
  return gotoStep(ts[t - 1]);
}));
$('r-viewer').addEventListener('change', guard(() => {
  replay.viewer = Number($('r-viewer').value);
  return gotoStep(replay.step);
}));
$('r-ask').addEventListener('click', guard(async () => {
  const a = await api('POST', `/api/replays/${replay.id}/ask`, { bot: $('r-ask-bot').value, step: replay.step, viewer: replay.viewer }, replay.token);
  renderAdvice($('r-advice'), a);
}));
document.addEventListener('keydown', (ev) => {
  if ($('screen-replay').hidden || $('viewer').hidden || ev.target.closest('input, select, textarea')) return;
  if (ev.key === 'ArrowRight') guard(() => gotoStep(replay.step + 1))();
  if (ev.key === 'ArrowLeft') guard(() => gotoStep(replay.step - 1))();
});

// ---- start ------------------------------------------------------------------------------

guard(async () => {
  await loadBots();
  // A game this tab created survives a reload while the server keeps it.
  const saved = JSON.parse(sessionStorage.getItem('container-game') || 'null');
  if (saved) {
    try {
      const st = await api('GET', `/api/games/${saved.id}`, undefined, saved.token);
      Object.assign(game, saved, { log: [] });
      $('new-game').hidden = true;
      $('game').hidden = false;
      renderGame(st);
    } catch {
      sessionStorage.removeItem('container-game');
    }
  }
  // Tests read when the page became usable, from the start of the navigation's fetch.
  const nav = performance.getEntriesByType('navigation')[0];
  document.body.dataset.readyMs = (performance.now() - (nav ? nav.fetchStart : 0)).toFixed(1);
  document.body.dataset.ready = '1';
})();
