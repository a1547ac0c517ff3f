// The Container web app: plain JavaScript, no build step. The server draws the board (SVG)
// from the seat's redacted view; this file only shows what the server sends and posts moves.

const $ = (id) => document.getElementById(id);

// api calls the server and returns the decoded JSON; errors show their message.
async function api(method, path, body, token) {
  // Every POST says it is JSON (also one without a body), and every request goes to this
  // page's own origin (paths only).
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

// fillBots lists the levels for players (easy to expert) in their own group first, then the
// other bots.
function fillBots(sel, preferred) {
  const opt = (b) => el('option', { value: b.name, title: b.description }, b.name);
  const levels = botList.filter((b) => b.level);
  const others = botList.filter((b) => !b.level);
  if (levels.length === 0) sel.replaceChildren(...others.map(opt));
  else sel.replaceChildren(el('optgroup', { label: 'Levels' }, ...levels.map(opt)), el('optgroup', { label: 'Bots' }, ...others.map(opt)));
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

const game = { id: null, token: null, log: [], state: null, words: new Map(), hist: { at: null, timer: null, busy: false } };
const phone = window.matchMedia('(max-width: 700px)');

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
  startGameScreen();
  renderGame(st);
}));

function startGameScreen() {
  $('new-game').hidden = true;
  $('game').hidden = false;
  $('g-advice').replaceChildren();
  // The full move list starts folded on a phone, where it would push the board away.
  $('g-log-box').open = !phone.matches;
  setZoom(phone.matches ? phoneZoom : 0);
}

$('g-new').addEventListener('click', () => {
  stopWatching();
  $('game').hidden = true;
  $('new-game').hidden = false;
});

async function playMove(text) {
  if (game.hist.at !== null) backToNow();
  const t0 = performance.now();
  const st = await api('POST', `/api/games/${game.id}/move`, { move: text, since: game.log.length }, game.token);
  $('g-advice').replaceChildren();
  renderGame(st);
  document.body.dataset.moveMs = (performance.now() - t0).toFixed(1);
}

$('board').addEventListener('click', guard(async (ev) => {
  const t = ev.target.closest('[data-move]');
  if (t && game.state && game.state.your_move && game.hist.at === null) await playMove(t.dataset.move);
}));
$('board').addEventListener('keydown', guard(async (ev) => {
  const t = ev.target.closest('[data-move]');
  if (t && (ev.key === 'Enter' || ev.key === ' ') && game.state && game.state.your_move && game.hist.at === null) {
    ev.preventDefault();
    await playMove(t.dataset.move);
  }
}));

$('g-undo').addEventListener('click', guard(async () => {
  game.log = [];
  renderGame(await api('POST', `/api/games/${game.id}/undo`, undefined, game.token));
}));

$('g-ask').addEventListener('click', guard(async () => {
  const a = await api('POST', `/api/games/${game.id}/ask`, { bot: $('g-ask-bot').value }, game.token);
  renderAdvice($('g-advice'), a, game.words);
}));

$('g-view').addEventListener('click', guard(async () => {
  const res = await fetch(`/api/games/${game.id}/record`, { headers: { 'X-Game-Token': game.token } });
  if (!res.ok) throw new Error((await res.json()).error);
  const record = await res.json();
  showScreen('replay');
  await openReplay({ record });
}));

const seatLabel = (st, s) => (s === st.seat ? 'you' : `p${s + 1}${st.names[s] ? ' (' + st.names[s] + ')' : ''}`);

// drawBoard puts an SVG board in box and gives every move target its words as a tooltip
// and an accessible name (the notation stays in data-move).
function drawBoard(box, svg, words) {
  box.innerHTML = svg;
  if (!words) return;
  for (const t of box.querySelectorAll('[data-move]')) {
    const w = words.get(t.dataset.move);
    if (!w) continue;
    t.setAttribute('aria-label', w);
    const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
    title.textContent = `${w} (${t.dataset.move})`;
    t.prepend(title);
  }
}

// hintBoard marks the board shapes of a move while its button is pointed at or focused.
function hintBoard(move, on) {
  for (const t of $('board').querySelectorAll('[data-move]')) if (t.dataset.move === move) t.classList.toggle('hint', on);
}

function renderGame(st) {
  stopWatching();
  game.hist.at = null;
  game.state = st;
  // Tests wait for this counter to know an answer has been drawn.
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
  game.words = new Map(st.moves.map((m) => [m.text, m.words]));
  if (st.amount) for (const o of st.amount.offers) game.words.set(o.text, o.words);
  drawBoard($('board'), st.svg, game.words);
  $('board').classList.remove('past');
  $('g-options').textContent = `${st.options} · you are p${st.seat + 1}`;
  let status;
  if (st.over) status = 'Game over';
  else if (st.your_move) status = `Turn ${st.turn} · your decision`;
  else status = `Turn ${st.turn} · ${seatLabel(st, st.decider)} decides`;
  if (!st.over && st.active !== st.decider) status += ` · ${st.active === st.seat ? 'your' : seatLabel(st, st.active) + "'s"} turn`;
  $('g-status').textContent = status;
  $('g-turnbar').classList.toggle('yours', st.your_move);
  $('g-prompt').textContent = st.prompt;
  $('g-help-text').textContent = st.help;
  $('g-help-ref').textContent = st.help_ref ? `From docs/RULES.md, section ${st.help_ref} (phase ${st.phase}).` : '';
  const moves = $('g-moves');
  moves.replaceChildren(...st.moves.map((m) => el('button', {
    type: 'button', 'data-move': m.text, title: m.text, onclick: guard(() => playMove(m.text)),
    onmouseenter: () => hintBoard(m.text, true), onmouseleave: () => hintBoard(m.text, false),
    onfocus: () => hintBoard(m.text, true), onblur: () => hintBoard(m.text, false),
  }, m.words)));
  renderAmount(st.amount);
  $('g-decide').hidden = !st.your_move && !st.can_undo && !st.over;
  $('g-undo').disabled = !st.can_undo;
  $('g-ask').disabled = !st.your_move;
  // The log grows at the end; after an undo the server sends it again from 0.
  game.log.length = Math.min(game.log.length, st.log_from);
  game.log.push(...st.log);
  renderLog($('g-log'), game.log.map((l) => ({ text: logText(st, l), title: l.text, cls: l.step < 0 ? 'reveal' : (l.text === 'sealed bid' ? 'hidden-move' : '') })), game.log.length - 1);
  renderRecent(st);
  renderSeats(st);
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

// renderAmount offers the server's amount buttons (every amount of a small range, a spread
// of a large one) and a number field for any other.
function renderAmount(a) {
  const box = $('g-amount');
  box.hidden = !a;
  if (!a) { box.replaceChildren(); return; }
  const input = el('input', { type: 'number', min: a.min, max: a.max, value: a.min, 'aria-label': 'amount' });
  box.replaceChildren(
    el('span', {}, a.sealed ? `Sealed bid ($${a.min}–$${a.max}):` : `Amount ($${a.min}–$${a.max}):`),
    ...a.offers.map((o) => el('button', { type: 'button', 'data-move': o.text, title: `${o.words} (${o.text})`, onclick: guard(() => playMove(o.text)) }, o.text)),
    input,
    el('button', { type: 'button', onclick: guard(() => playMove(`$${input.value}`)) }, a.sealed ? 'Seal bid' : 'Bid'),
  );
}

function logText(st, l) {
  if (l.step < 0) return l.words || l.text;
  return `t${l.turn} ${seatLabel(st, l.seat)}: ${l.words || l.text}`;
}

function renderLog(ol, items, current) {
  ol.replaceChildren(...items.map((it, i) => el('li', { class: it.cls + (i === current ? ' current' : ''), title: it.title || '' }, it.text)));
  const cur = ol.children[current];
  const box = ol.closest('details');
  if (cur && (!box || box.open)) cur.scrollIntoView({ block: 'nearest' });
}

// ---- what just happened ---------------------------------------------------------------------

// renderRecent lists the moves since the human's last one (the bots' replies); the board can
// show each as it was then, one by one or played back at a pace.
function renderRecent(st) {
  const box = $('g-recent');
  const from = st.since_step;
  box.hidden = from < 0;
  if (from < 0) return;
  const first = game.log.findIndex((l) => l.step >= from);
  const lines = first < 0 ? [] : game.log.slice(first);
  $('g-recent-list').replaceChildren(...lines.map((l) => {
    const li = el('li', { class: l.step < 0 ? 'reveal' : '', title: l.text }, l.step < 0 ? l.words : `${seatLabel(st, l.seat)}: ${l.words}`);
    if (l.step >= 0) {
      li.dataset.step = String(l.step + 1);
      li.addEventListener('click', guard(() => { stopWatching(); return showHistory(l.step + 1); }));
    }
    return li;
  }));
  const n = st.steps - from;
  $('g-recent-pos').textContent = `${n} move${n === 1 ? '' : 's'} · outlined in orange on the board`;
  $('g-h-banner').hidden = true;
  updateHistoryButtons();
}

function updateHistoryButtons() {
  const st = game.state;
  if (!st || st.since_step < 0) return;
  const at = game.hist.at ?? st.steps;
  $('g-h-prev').disabled = at <= st.since_step;
  $('g-h-next').disabled = game.hist.at === null;
  $('g-h-now').disabled = game.hist.at === null;
  $('g-h-play').textContent = game.hist.timer ? '❚❚ pause' : '▶ watch';
  for (const li of $('g-recent-list').children) li.classList.toggle('current', game.hist.at !== null && Number(li.dataset.step) === game.hist.at);
}

// showHistory draws the board after the first n moves (as the human saw it then); n equal to
// the current step returns to the live board.
async function showHistory(n) {
  const st = game.state;
  n = Math.max(st.since_step, Math.min(st.steps, n));
  if (n === st.steps) { backToNow(); return; }
  if (game.hist.busy) return;
  game.hist.busy = true;
  try {
    const h = await api('GET', `/api/games/${game.id}/history/${n}`, undefined, game.token);
    if (game.state !== st) return; // a move was played meanwhile
    game.hist.at = n;
    drawBoard($('board'), h.svg, null);
    $('board').classList.add('past');
    const b = $('g-h-banner');
    b.hidden = false;
    b.textContent = `The board after move ${n - st.since_step} of ${st.steps - st.since_step}` + (h.line ? ` — ${seatLabel(st, h.seat)}: ${h.line}` : ' — right after your move') + '. Click "now" to play.';
    document.body.dataset.historyStep = String(n);
  } finally {
    game.hist.busy = false;
    updateHistoryButtons();
  }
}

function backToNow() {
  stopWatching();
  const st = game.state;
  game.hist.at = null;
  drawBoard($('board'), st.svg, game.words);
  $('board').classList.remove('past');
  $('g-h-banner').hidden = true;
  delete document.body.dataset.historyStep;
  updateHistoryButtons();
}

function stopWatching() {
  if (game.hist.timer) clearTimeout(game.hist.timer);
  game.hist.timer = null;
}

// watchStep shows the next move of the playback and schedules the one after.
function watchStep() {
  const st = game.state;
  const at = game.hist.at ?? st.steps;
  if (at + 1 >= st.steps) { backToNow(); return; }
  showHistory(at + 1).catch(showError).finally(() => {
    if (!game.hist.timer) return;
    game.hist.timer = setTimeout(watchStep, Number($('g-h-pace').value));
    updateHistoryButtons();
  });
}

$('g-h-prev').addEventListener('click', guard(() => { stopWatching(); return showHistory((game.hist.at ?? game.state.steps) - 1); }));
$('g-h-next').addEventListener('click', guard(() => { stopWatching(); return showHistory((game.hist.at ?? game.state.steps) + 1); }));
$('g-h-now').addEventListener('click', backToNow);
$('g-h-play').addEventListener('click', guard(async () => {
  if (game.hist.timer) { stopWatching(); updateHistoryButtons(); return; }
  // Playback starts right after the human's move, then shows each reply in turn.
  await showHistory(game.state.since_step);
  game.hist.timer = setTimeout(watchStep, Number($('g-h-pace').value));
  updateHistoryButtons();
}));

// ---- seats ----------------------------------------------------------------------------------

const money = (v) => (v < 0 ? `−$${-v}` : `$${v}`);

// renderSeats shows each seat's standing from the human's view: the score if the game ended
// now (another seat's island is unknown: its card is hidden), loans, ship; the human's own
// panel first, with the scoring card.
function renderSeats(st) {
  const order = [st.seat, ...st.seats.map((s) => s.seat).filter((s) => s !== st.seat)];
  $('g-seats').replaceChildren(...order.map((i) => {
    const s = st.seats[i];
    const head = el('div', { class: 'seat-head' },
      el('span', { class: 'seat-name' }, `${s.active ? '▶ ' : ''}p${s.seat + 1} ${s.you ? '(you)' : s.name}`),
      el('span', { class: 'seat-cash', title: 'cash in hand' }, money(s.cash)));
    const badges = el('div', { class: 'badges' });
    if (s.active) badges.append(el('span', { class: 'badge turn' }, s.you ? 'your turn' : 'their turn'));
    if (s.deciding) badges.append(el('span', { class: 'badge deciding' }, s.you ? 'you decide now' : 'deciding now'));
    const n = s.now;
    const total = s.island_known ? money(n.total) : `${money(n.total)} + island`;
    const parts = [
      el('div', { class: 'standing', title: 'final scoring applied to the board as you see it' }, 'If the game ended now: ', el('strong', {}, total)),
      el('div', { class: 'small breakdown' }, `cash ${money(n.cash)} · island ${s.island_known ? money(n.island) : '? (card hidden)'} from ${s.island} container${s.island === 1 ? '' : 's'} · leftovers ${money(n.leftover)} · loans ${money(n.loans)}`),
    ];
    if (s.card) parts.unshift(el('div', { class: 'card' }, el('strong', {}, 'Your scoring '), s.card));
    if (s.loans.length) parts.push(el('div', { class: 'small loans' }, `Loans: ${s.loans.map((l) => `${l.lender} $${l.amount}`).join(', ')}`));
    parts.push(el('div', { class: 'small' }, `Ship ${s.ship}${s.extra ? ' · ' + s.extra : ''}`));
    return el('div', { class: `panel seat${s.you ? ' you' : ''}${s.active ? ' active' : ''}${s.deciding ? ' deciding' : ''}`, 'data-seat': s.seat }, head, badges, ...parts);
  }));
}

// ---- board zoom -----------------------------------------------------------------------------

// Zoom 0 fits the board to the width of its box; otherwise the board is drawn at that many
// CSS pixels per board unit (it is 1200 units wide) and scrolls inside its box. At the
// largest, a container (18 units, the smallest target) is 40 px wide: a finger's size.
// Phones start at phoneZoom, where the median board target (a ship's place or a factory
// slot, 38 units) is over 40 px: the browser test measures it.
const zooms = [0, 0.75, 1, 1.25, 1.5, 2.25];
const phoneZoom = 1.25;
let zoom = 0;
function setZoom(z) {
  zoom = z;
  for (const box of document.querySelectorAll('.board-scroll')) box.style.setProperty('--board-w', z ? `${1200 * z}px` : '100%');
  document.body.dataset.zoom = String(z);
}
$('g-zoom-fit').addEventListener('click', () => setZoom(0));
$('g-zoom-in').addEventListener('click', () => setZoom(zooms[Math.min(zooms.length - 1, zooms.indexOf(zoom) + 1)]));
$('g-zoom-out').addEventListener('click', () => setZoom(zooms[Math.max(0, zooms.indexOf(zoom) - 1)]));

function renderScores(table, scores) {
  const head = el('tr', {}, ...['seat', 'cash', 'island', 'left\u00adover', 'loans', 'total', 'rank'].map((h) => el('th', {}, h)));
  table.replaceChildren(head, ...scores.map((s) => el('tr', { class: s.winner ? 'winner' : '', 'data-seat': s.seat },
    el('td', {}, `p${s.seat + 1}${s.name ? ' ' + s.name : ''}`),
    ...[s.cash, s.island, s.leftover, s.loans, s.total, s.rank].map((v) => el('td', {}, String(v))))));
}

function renderAdvice(box, a, words) {
  const say = (m) => (words && words.get(m) ? ` — ${words.get(m)}` : '');
  const parts = [el('p', {}, `${a.bot} (as p${a.seat + 1}) plays `, el('code', {}, a.move), say(a.move))];
  if (a.top && a.top.length) {
    parts.push(el('table', {}, ...a.top.map((m) => {
      const bar = el('div', { class: 'bar' });
      bar.style.width = `${Math.max(1, Math.round(m.prob * 100))}%`;
      return el('tr', { title: words && words.get(m.move) ? words.get(m.move) : '' }, el('td', {}, el('code', {}, m.move)), el('td', {}, `${(m.prob * 100).toFixed(1)}%`), el('td', { style: 'width:40%' }, bar));
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
  $('r-log-box').open = !phone.matches;
  if (phone.matches && zoom === 0) setZoom(phoneZoom);
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
      ? `Step ${n} of ${info.moves} · turn ${st.turn} · p${st.decider + 1} decides: ${st.prompt}`
      : `Step ${n} of ${info.moves} · turn ${st.turn} · game over`;
    $('r-status').title = st.phase;
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
    return { text: `t${l.turn} p${l.seat + 1}: ${hidden ? (l.sealed || 'Sealed bid') : (l.words || l.text)}`, title: hidden ? l.phase : `${l.phase}: ${l.text}`, cls: hidden ? 'hidden-move' : '' };
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
      startGameScreen();
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
