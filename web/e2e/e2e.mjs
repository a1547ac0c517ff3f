// Browser test of `container serve` in real headless Chromium (Debian's chromium package),
// driven by playwright-core: plays a whole 3-player game against bots by clicking only,
// checks the final score table against `container score` of the downloaded record, opens the
// record in the replay viewer and steps to the end, and fails on any console error.
// Screenshots and timings go to $E2E_OUT (default out/e2e).
//
//   CONTAINER=/path/to/container node web/e2e/e2e.mjs
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const CONTAINER = resolve(process.env.CONTAINER || 'container');
const OUT = resolve(process.env.E2E_OUT || 'out/e2e');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const MAX_CLICKS = 1500;

mkdirSync(OUT, { recursive: true });
const data = mkdtempSync(join(tmpdir(), 'container-e2e-data-'));
const profile = mkdtempSync(join(tmpdir(), 'container-e2e-profile-'));
const timings = {};
const problems = [];

function fail(msg) {
  problems.push(msg);
  console.error('FAIL: ' + msg);
}

// checkFits fails when the element sticks out of its panel (its last columns cut off) or the
// page scrolls sideways.
async function checkFits(page, sel, what) {
  const m = await page.locator(sel).evaluate((e) => ({
    right: e.getBoundingClientRect().right, panel: e.parentElement.getBoundingClientRect().right,
    page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
  if (m.right > m.panel + 0.5) fail(`${what} sticks out of its panel by ${Math.round(m.right - m.panel)}px`);
  if (m.page > m.view) fail(`the page is ${m.page - m.view}px wider than the window`);
}

// checkTargets scrolls each move target of the board into view and asks the browser which
// element is at its centre: a target whose centre belongs to another element (a label drawn
// over it, a neighbour) is not clickable there. Returns the number of targets, the covered
// ones, the smallest side of a target and each target's smaller side, in CSS pixels.
async function checkTargets(page) {
  return page.evaluate(() => {
    const out = { total: 0, covered: [], minSide: Infinity, sides: [] };
    for (const t of document.querySelectorAll('#board [data-move]')) {
      t.scrollIntoView({ block: 'center', inline: 'center' });
      const r = t.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      out.total++;
      out.minSide = Math.min(out.minSide, r.width, r.height);
      out.sides.push(Math.min(r.width, r.height));
      const owner = at && at.closest('[data-move]');
      if (owner !== t) out.covered.push(`${t.dataset.move}: centre is <${at ? at.tagName : 'nothing'}>${owner ? ' of ' + owner.dataset.move : ''}`);
    }
    window.scrollTo(0, 0);
    return out;
  });
}

// checkPhone fails on what breaks a phone layout: the page scrolling sideways, a button of
// the decision smaller than 40x40 CSS pixels, a seat panel whose text sticks out.
async function checkPhone(page, where) {
  const m = await page.evaluate(() => {
    const small = [...document.querySelectorAll('#g-decide button, #g-recent button')].filter((b) => b.offsetParent !== null)
      .map((b) => b.getBoundingClientRect()).filter((r) => r.width < 40 || r.height < 40).length;
    const seats = [...document.querySelectorAll('.seat')].filter((e) => e.scrollWidth > e.clientWidth + 1).length;
    return { page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth, small, seats };
  });
  if (m.page > m.view) fail(`${where}: the page is ${m.page - m.view}px wider than the phone`);
  if (m.small > 0) fail(`${where}: ${m.small} buttons smaller than 40x40 px`);
  if (m.seats > 0) fail(`${where}: ${m.seats} seat panels overflow`);
}

// panelOverflow lists the texts of the board's seat panels drawn past their panel's edges
// (measured by the browser, in board units).
async function panelOverflow(page) {
  return page.evaluate(() => {
    const out = [];
    for (const g of document.querySelectorAll('#board g[data-seat]')) {
      const box = g.querySelector('rect').getBBox();
      for (const t of g.querySelectorAll('text')) {
        const b = t.getBBox();
        if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5) out.push(`${g.dataset.seat}: ${t.textContent}`);
      }
    }
    return out;
  });
}

const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * q))]; };

// startServer runs container serve on a free port and resolves with its URL.
function startServer() {
  const proc = spawn(CONTAINER, ['serve', '--addr', '127.0.0.1:0', '--data', data], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = new Promise((res, rej) => {
    proc.stdout.on('data', (b) => {
      out += b;
      const m = out.match(/http:\/\/[0-9.:]+\//);
      if (m) res(m[0]);
    });
    proc.on('exit', (code) => rej(new Error(`container serve exited with ${code}: ${out}`)));
    setTimeout(() => rej(new Error('container serve did not print its URL in 20 s')), 20000);
  });
  return { proc, url, output: () => out };
}

const server = startServer();
const url = await server.url;
console.log(`server: ${url}`);

const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1600, height: 1000 },
  acceptDownloads: true,
});
const page = context.pages()[0] || await context.newPage();
page.on('console', (m) => { if (m.type() === 'error') fail(`console error: ${m.text()}`); });
page.on('pageerror', (e) => fail(`page error: ${e.message}`));

async function renders() {
  return Number(await page.evaluate(() => document.body.dataset.renders || 0));
}

// click clicks target and waits until the game has been drawn again.
async function clickAndWait(locator) {
  const before = await renders();
  await locator.click();
  await page.waitForFunction((n) => Number(document.body.dataset.renders || 0) > n, before, { timeout: 15000 });
}

try {
  // First page: usable (bots loaded, form ready) within a second.
  let t0 = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  timings.first_page_wall_ms = Date.now() - t0;
  // From the start of navigation to the page being usable, as the browser measures it.
  timings.first_page_ms = Number(await page.evaluate(() => document.body.dataset.readyMs));
  console.log(`first page usable in ${timings.first_page_ms} ms (${timings.first_page_wall_ms} ms with the test's overhead)`);
  if (timings.first_page_ms > 1000) fail(`first page took ${timings.first_page_ms} ms (limit 1000)`);

  // A 3-player game against the default bot and the valuer, ended after 45 turns (15 each).
  await page.selectOption('#ng-players', '3');
  await page.fill('#ng-seed', '7');
  await page.fill('#ng-turns', '45');
  await page.selectOption('#ng-opponents select >> nth=1', 'valuer');
  await page.screenshot({ path: join(OUT, 'new-game.png') });
  t0 = Date.now();
  await clickAndWait(page.locator('#ng-start'));
  timings.new_game_ms = Date.now() - t0;

  // Play by clicking only: at each decision click "Ask" (the default bot's advice for our
  // seat), then click the advised move, on the board when it is drawn there, else in the
  // move list or among the amount buttons (the nearest amount when the advised one has no
  // button).
  let clicks = 0;
  let boardClicks = 0;
  const moveTimes = [];
  let targetsChecked = 0;
  const covered = [];
  let historyChecked = false;
  let desktopShot = false;
  while (!(await page.locator('#g-over').isVisible())) {
    if (++clicks > MAX_CLICKS) throw new Error(`the game did not end after ${MAX_CLICKS} decisions`);
    // Every outlined target of every decision is clickable at its centre.
    const tc = await checkTargets(page);
    for (const o of await panelOverflow(page)) fail(`decision ${clicks}: board text past its panel: ${o}`);
    targetsChecked += tc.total;
    covered.push(...tc.covered);
    if (clicks === 1) {
      // Moves read as words; the notation is on hover.
      const b = await page.locator('#g-moves button').first().evaluate((e) => ({ text: e.textContent, move: e.dataset.move, title: e.title }));
      if (b.text === b.move || b.title !== b.move || !/^[A-Z]/.test(b.text)) fail(`move button ${JSON.stringify(b)} does not read as words with the notation on hover`);
      const prompt = await page.locator('#g-prompt').textContent();
      if (!prompt || prompt.length < 10) fail(`the decision reads ${JSON.stringify(prompt)}`);
    }
    if (!historyChecked && await page.locator('#g-recent-list li[data-step]').count() >= 3) {
      // Step back through the bots' replies, return, then watch them at the fast pace.
      historyChecked = true;
      await page.click('#g-h-prev');
      await page.waitForSelector('body[data-history-step]');
      if (!(await page.locator('#g-h-banner').isVisible())) fail('stepping back shows no banner');
      await page.click('#g-h-prev');
      await page.click('#g-h-now');
      await page.waitForFunction(() => !document.body.dataset.historyStep);
      await page.selectOption('#g-h-pace', '400');
      await page.click('#g-h-play');
      await page.waitForSelector('body[data-history-step]');
      await page.waitForFunction(() => !document.body.dataset.historyStep, null, { timeout: 30000 });
      timings.history_checked = true;
    }
    await page.locator('#g-advice').evaluate((e) => e.replaceChildren());
    await page.click('#g-ask');
    const advised = await page.locator('#g-advice code').first().textContent({ timeout: 15000 });
    let target = page.locator(`#board [data-move="${advised}"]`);
    if (await target.count() > 0) {
      target = target.first();
      boardClicks++;
    } else if (await page.locator(`#g-moves button[data-move="${advised}"]`).count() > 0) {
      target = page.locator(`#g-moves button[data-move="${advised}"]`);
    } else if (advised.startsWith('$')) {
      const want = Number(advised.slice(1));
      const amounts = await page.locator('#g-amount button[data-move]').evaluateAll((bs) => bs.map((b) => Number(b.dataset.move.slice(1))));
      const best = amounts.reduce((x, y) => (Math.abs(y - want) < Math.abs(x - want) ? y : x));
      target = page.locator(`#g-amount button[data-move="$${best}"]`);
    } else {
      throw new Error(`the advised move ${advised} is offered neither on the board nor in the list`);
    }
    await clickAndWait(target);
    moveTimes.push(Number(await page.evaluate(() => document.body.dataset.moveMs)));
    if (clicks === 40) await page.screenshot({ path: join(OUT, 'play.png'), fullPage: true });
    if (clicks >= 30 && !desktopShot && await page.locator('#g-recent').isVisible()) {
      // The window as a player sees it, with the bots' replies listed and outlined
      // (docs/img/web-desktop.png comes from here).
      desktopShot = true;
      await page.evaluate(() => { window.scrollTo(0, 0); for (const b of document.querySelectorAll('.board-scroll')) b.scrollTo(0, 0); });
      await page.screenshot({ path: join(OUT, 'play-desktop.png') });
    }
  }
  moveTimes.sort((a, b) => a - b);
  timings.human_decisions = clicks;
  // Other seats' sealed bids seen as such, and the reveal lines, in the move log.
  timings.sealed_bid_lines = await page.locator('#g-log li', { hasText: /sealed bid$/ }).count();
  timings.reveal_lines = await page.locator('#g-log li', { hasText: 'sealed bids revealed' }).count();
  timings.board_clicks = boardClicks;
  // Click to board drawn, measured in the page: the human move, the bots' replies and drawing.
  timings.click_to_board_p50_ms = pct(moveTimes, 0.5);
  timings.click_to_board_p95_ms = pct(moveTimes, 0.95);
  timings.click_to_board_p99_ms = pct(moveTimes, 0.99);
  timings.board_targets_checked = targetsChecked;
  timings.board_targets_covered = covered.length;
  if (covered.length > 0) fail(`${covered.length} of ${targetsChecked} board targets are covered at their centre, e.g. ${covered.slice(0, 5).join('; ')}`);
  if (!timings.history_checked) fail('the game never showed three replies to step through');
  console.log(`game over after ${clicks} decisions (${boardClicks} clicked on the board)`);
  await page.screenshot({ path: join(OUT, 'play-final.png'), fullPage: true });
  if (!(await page.locator('#g-new').isVisible())) fail('the finished game offers no "New game" button');
  await checkFits(page, '#g-scores', 'the final score table');

  // The score table against container score of the downloaded record.
  const shown = await page.locator('#g-scores tr[data-seat]').evaluateAll((rows) => rows.map((r) =>
    [...r.querySelectorAll('td')].slice(1).map((td) => Number(td.textContent))));
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#g-download').click()]);
  const recordPath = join(data, 'played.json');
  await download.saveAs(recordPath);
  const scored = JSON.parse(execFileSync(CONTAINER, ['score', recordPath, '--json'], { encoding: 'utf8' }));
  const want = scored.map((s) => [s.cash, s.island, s.leftover, s.loans, s.total, s.rank]);
  if (JSON.stringify(shown) !== JSON.stringify(want)) fail(`score table ${JSON.stringify(shown)} differs from container score ${JSON.stringify(want)}`);
  else console.log(`score table matches container score: ${JSON.stringify(want)}`);
  // The downloaded record replays in the terminal too.
  execFileSync(CONTAINER, ['replay', recordPath], { stdio: 'ignore' });

  // The record in the viewer: open it from the data directory, step to the end by turns.
  await page.click('#tab-replay');
  await page.waitForSelector('#or-record option[value="played.json"]', { state: 'attached' });
  await page.selectOption('#or-record', 'played.json');
  // No dataset under --data: the drop-down says so rather than standing blank.
  const noDatasets = await page.locator('#or-dataset').textContent();
  if (!noDatasets.includes('no datasets')) fail(`the empty dataset list reads ${JSON.stringify(noDatasets)}`);
  await page.click('#or-open-record');
  await page.waitForSelector('body[data-replay-step="0"]');
  const total = Number(await page.locator('#r-slider').getAttribute('max'));
  // Step times: one decision forward, click to drawn board.
  const stepTimes = [];
  for (let i = 1; i <= 30 && i <= total; i++) {
    await page.click('#r-next');
    await page.waitForSelector(`body[data-replay-step="${i}"]`);
    stepTimes.push(Number(await page.evaluate(() => document.body.dataset.stepMs)));
  }
  stepTimes.sort((a, b) => a - b);
  timings.replay_steps = total;
  timings.replay_step_p50_ms = stepTimes[Math.floor(stepTimes.length / 2)];
  timings.replay_step_max_ms = stepTimes[stepTimes.length - 1];
  if (timings.replay_step_p50_ms > 50) fail(`replay step takes ${timings.replay_step_p50_ms} ms (median; limit 50)`);
  // One decision back.
  const here = Number(await page.evaluate(() => document.body.dataset.replayStep));
  await page.click('#r-prev');
  await page.waitForSelector(`body[data-replay-step="${here - 1}"]`);
  let guardTurns = 0;
  while (await page.locator('#r-next-turn').isEnabled()) {
    const before = await page.evaluate(() => document.body.dataset.replayStep);
    await page.click('#r-next-turn');
    await page.waitForFunction((b) => document.body.dataset.replayStep !== b, before);
    if (++guardTurns > 2000) throw new Error('stepping by turn does not reach the end');
  }
  const atEnd = await page.evaluate(() => document.body.dataset.replayStep);
  if (Number(atEnd) !== total) fail(`viewer stopped at step ${atEnd}, the record has ${total}`);
  const replayScores = await page.locator('#r-scores tr[data-seat]').evaluateAll((rows) => rows.map((r) =>
    [...r.querySelectorAll('td')].slice(1).map((td) => Number(td.textContent))));
  if (JSON.stringify(replayScores) !== JSON.stringify(want)) fail(`viewer's final scores ${JSON.stringify(replayScores)} differ from container score`);
  await checkFits(page, '#r-scores', "the viewer's final score table");
  await page.screenshot({ path: join(OUT, 'replay-end.png'), fullPage: true });
  // A 4-player game between bots saved by container eval, opened from the data directory: the
  // board in the middle of the game, seen whole (docs/img/board.png comes from here).
  execFileSync(CONTAINER, ['eval', '--agents', 'default,valuer,shipper,manufacturer', '--games', '1', '--seed', '3', '--save', join(data, 'eval')], { stdio: 'ignore' });
  await page.click('#tab-replay');
  await page.waitForSelector('#or-record option[value="eval/game-00000.json"]', { state: 'attached' });
  await page.selectOption('#or-record', 'eval/game-00000.json');
  await page.click('#or-open-record');
  await page.waitForSelector('body[data-replay-step="0"]');
  const evalTotal = Number(await page.locator('#r-slider').getAttribute('max'));
  const mid = Math.round(evalTotal * 0.6);
  await page.locator('#r-slider').fill(String(mid));
  await page.waitForSelector(`body[data-replay-step="${mid}"]`);
  await page.locator('#r-board svg').screenshot({ path: join(OUT, 'board.png') });
  await page.screenshot({ path: join(OUT, 'replay-mid.png'), fullPage: true });
  // Ask a bot at an earlier position of the viewer.
  await page.click('#r-first');
  await page.waitForSelector('body[data-replay-step="0"]');
  await page.click('#r-ask');
  await page.waitForSelector('#r-advice code');
  await page.screenshot({ path: join(OUT, 'replay-ask.png'), fullPage: true });

  // A phone (390x844): first page, a 5-player game with every module played by tapping
  // moves in the list, checked at every decision (no sideways scrolling, buttons of at least
  // 40x40 px, seat panels that hold their text), then the replay viewer.
  const ph = await context.newPage();
  ph.on('console', (m) => { if (m.type() === 'error') fail(`phone console error: ${m.text()}`); });
  ph.on('pageerror', (e) => fail(`phone page error: ${e.message}`));
  await ph.setViewportSize({ width: 390, height: 844 });
  await ph.goto(url, { waitUntil: 'load' });
  await ph.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  timings.phone_first_page_ms = Number(await ph.evaluate(() => document.body.dataset.readyMs));
  await ph.selectOption('#ng-players', '5');
  await ph.fill('#ng-seed', '5');
  await ph.fill('#ng-turns', '40');
  for (const c of await ph.locator('.ng-module').all()) await c.check();
  await checkPhone(ph, 'phone, new game form');
  const phRenders = async () => Number(await ph.evaluate(() => document.body.dataset.renders || 0));
  let before = await phRenders();
  await ph.click('#ng-start');
  await ph.waitForFunction((n) => Number(document.body.dataset.renders || 0) > n, before);
  if (await ph.locator('#g-log-box').evaluate((e) => e.open)) fail('phone: the move list starts unfolded');
  const scale = await ph.locator('#board svg').evaluate((e) => e.getBoundingClientRect().width / 1200);
  timings.phone_board_text_px = Math.round(11 * scale * 10) / 10;
  if (timings.phone_board_text_px < 10) fail(`phone: the board's smallest labels are ${timings.phone_board_text_px} px`);
  const phoneTimes = [];
  let phoneDecisions = 0;
  let phoneMin = Infinity;
  const phoneSides = [];
  while (!(await ph.locator('#g-over').isVisible()) && phoneDecisions < 120) {
    phoneDecisions++;
    await checkPhone(ph, `phone, decision ${phoneDecisions}`);
    const pt = await checkTargets(ph);
    for (const o of await panelOverflow(ph)) fail(`phone decision ${phoneDecisions}: board text past its panel: ${o}`);
    if (pt.total > 0) phoneMin = Math.min(phoneMin, pt.minSide);
    phoneSides.push(...pt.sides);
    if (pt.covered.length > 0) fail(`phone: board targets covered at their centre: ${pt.covered.slice(0, 5).join('; ')}`);
    const buttons = ph.locator('#g-moves button, #g-amount button[data-move]');
    const n = await buttons.count();
    if (n === 0) throw new Error('phone: no move to tap');
    // Mostly the first move (ending the turn when offered keeps the game moving), now and
    // then another.
    const target = buttons.nth(phoneDecisions % 4 === 0 ? phoneDecisions % n : 0);
    before = await phRenders();
    await target.click();
    await ph.waitForFunction((k) => Number(document.body.dataset.renders || 0) > k, before, { timeout: 15000 });
    phoneTimes.push(Number(await ph.evaluate(() => document.body.dataset.moveMs)));
    if (phoneDecisions === 12) {
      // docs/img/web-phone.png comes from here.
      await ph.evaluate(() => { window.scrollTo(0, 0); for (const b of document.querySelectorAll('.board-scroll')) b.scrollTo(0, 0); });
      await ph.screenshot({ path: join(OUT, 'phone-play.png') });
    }
  }
  timings.phone_decisions = phoneDecisions;
  timings.phone_click_to_board_p50_ms = pct(phoneTimes, 0.5);
  timings.phone_click_to_board_p95_ms = pct(phoneTimes, 0.95);
  timings.phone_board_target_min_px = Math.round(phoneMin * 10) / 10;
  // The board targets a phone player taps (every target of every decision, as the page
  // first shows it): the median is a finger's size.
  timings.phone_board_target_median_px = Math.round(pct(phoneSides, 0.5) * 10) / 10;
  if (timings.phone_board_target_median_px < 40) fail(`phone: the median board target is ${timings.phone_board_target_median_px} px (want 40)`);
  // Zoomed in all the way, the smallest board target is a finger's size.
  for (let i = 0; i < 5; i++) await ph.click('#g-zoom-in');
  const zoomed = await ph.locator('#board svg').evaluate((e) => e.getBoundingClientRect().width / 1200);
  timings.phone_board_target_min_zoomed_px = Math.round(18 * zoomed * 10) / 10;
  if (timings.phone_board_target_min_zoomed_px < 40) fail(`phone: zoomed in, the smallest board target is ${timings.phone_board_target_min_zoomed_px} px`);
  await ph.screenshot({ path: join(OUT, 'phone-play-full.png'), fullPage: true });
  await ph.click('#tab-replay');
  await ph.waitForSelector('#or-record option[value="played.json"]', { state: 'attached' });
  await ph.selectOption('#or-record', 'played.json');
  await ph.click('#or-open-record');
  await ph.waitForSelector('body[data-replay-step="0"]');
  await ph.click('#r-next');
  await ph.waitForSelector('body[data-replay-step="1"]');
  const rw = await ph.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (rw > 0) fail(`phone: the replay page is ${rw}px wider than the phone`);
  await ph.screenshot({ path: join(OUT, 'phone-replay.png') });
  await ph.close();
} catch (err) {
  fail(err.stack || String(err));
  await page.screenshot({ path: join(OUT, 'failure.png'), fullPage: true }).catch(() => {});
} finally {
  await context.close();
  // Graceful shutdown on Ctrl-C (SIGINT).
  const exited = new Promise((res) => server.proc.on('exit', (code, sig) => res({ code, sig })));
  server.proc.kill('SIGINT');
  const { code } = await exited;
  if (code !== 0 || !server.output().includes('stopped')) fail(`container serve did not stop cleanly on SIGINT (exit ${code})`);
  rmSync(profile, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
}

timings.problems = problems;
writeFileSync(join(OUT, 'e2e.json'), JSON.stringify(timings, null, 2) + '\n');
console.log(JSON.stringify(timings, null, 2));
if (problems.length > 0) {
  console.error(`${problems.length} problem(s)`);
  process.exit(1);
}
console.log('e2e: ok');
