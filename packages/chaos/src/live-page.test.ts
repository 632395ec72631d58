import { createServer, type Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChaosProcess, type ChaosProcess } from './chaos-process.ts';
import { manualClock } from './chaos-clock.ts';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { START_CAP_MS } from './start-process.ts';
import type { Fault } from './faults.ts';
import { REQUEST_OUTCOMES } from './live-view/live-schema.ts';
import { launchChromium, type LaunchedChromium } from '@mcp-resilience/chromium';
import { liveUrl } from './test-support/live-viewer.ts';
import { callTool, inject, openSession } from './test-support/raw-client.ts';

// The live view in real Chromium (through playwright-core): every step waits for what
// the page draws (lanes, marks, requests by outcome), never for a time.
const SHOWN_WITHIN_MS = 10_000;

let browser: LaunchedChromium;
let context: BrowserContext;
let chaos: ChaosServer | undefined;
let foreign: Server | undefined;
let child: ChaosProcess | undefined;
/** What the page reported against itself: CSP refusals, script errors. */
const complaints: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  context = browser.context;
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const page of context.pages()) await page.close();
  await chaos?.stop();
  await child?.stop();
  chaos = child = undefined;
  await new Promise<void>((resolve) => (foreign ? (foreign.closeAllConnections(), foreign.close(() => resolve())) : resolve()));
  foreign = undefined;
  complaints.length = 0;
});

async function open(url: string, before?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await context.newPage();
  await before?.(page);
  page.on('console', (m) => void (m.type() === 'error' && complaints.push(m.text())));
  page.on('pageerror', (e) => void complaints.push(e.message));
  await page.goto(url);
  return page;
}

const shown = (page: Page, selector: string) => page.waitForSelector(selector, { state: 'attached', timeout: SHOWN_WITHIN_MS });

describe('the live view at {control}/, in Chromium', () => {
  it('connects and draws a session, the fault that ends it, the call that meets it, and the recovery on a new lane', { timeout: 60_000 }, async () => {
    chaos = await startChaosServer({ dialect: 'amdahl' });
    const page = await open(`${chaos.control}/`);
    await shown(page, '#status[data-state="live"]');
    expect(await page.$$eval('#legend li', (items) => items.map((i) => i.getAttribute('data-legend')))).toEqual(
      expect.arrayContaining([...REQUEST_OUTCOMES.map((o) => o.outcome), 'pending', 'fault', 'lane']));

    const first = await openSession(chaos.url);
    await callTool(chaos.url, first, 'echo', { text: 'one' });
    await shown(page, '.lane[data-session="1"][data-state="open"] .call[data-outcome="ok"]');

    await inject(chaos, { kind: 'evict', session: 'all' });
    await shown(page, '.fault[data-kind="evict"]');
    await shown(page, '.lane[data-session="1"][data-state="ended"][data-reason="evicted"]');
    await callTool(chaos.url, first, 'echo', { text: 'gone' });
    await shown(page, '.lane[data-session="1"] .call[data-outcome="session-gone"]');

    const second = await openSession(chaos.url); // what a resilient client does next
    await callTool(chaos.url, second, 'echo', { text: 'two' });
    await shown(page, '.lane[data-session="2"][data-state="open"] .call[data-outcome="ok"]');
    await inject(chaos, { kind: 'status', status: 429, count: 1, retryAfter: '1' });
    await callTool(chaos.url, second, 'echo', { text: 'limited' });
    await shown(page, '.lane[data-session="2"] .call[data-outcome="slow-down"]');
    expect(await page.textContent('#events')).toContain('session 1 ended: evicted');
    expect(await page.textContent('#in-force')).toContain('dialect amdahl');

    // A late viewer is not blank: a fresh page draws what came before it.
    const late = await open(`${chaos.control}/`);
    await shown(late, '.lane[data-session="1"][data-reason="evicted"] .call[data-outcome="session-gone"]');
    await shown(late, '.lane[data-session="2"] .call[data-outcome="ok"]');
    expect(complaints).toEqual([]); // no CSP refusal, no script error
  });

  it('refuses a page of a foreign origin: its WebSocket never opens', async () => {
    chaos = await startChaosServer();
    foreign = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
    await new Promise<void>((resolve) => foreign!.listen(0, '127.0.0.1', resolve));
    const page = await open(`http://127.0.0.1:${(foreign.address() as { port: number }).port}/`);
    const outcome = await page.evaluate((url) => new Promise<{ opened: boolean; messages: number }>((resolve) => {
      const socket = new WebSocket(url);
      let opened = false;
      let messages = 0;
      socket.onopen = () => (opened = true);
      socket.onmessage = () => messages++;
      socket.onclose = () => resolve({ opened, messages });
    }), liveUrl(chaos.control));
    expect(outcome).toEqual({ opened: false, messages: 0 });
  });
});

/** The boxes of the drawn fault labels, and of the lines of marks that run up to a label, as the browser laid them out. */
function labelBoxes(page: Page) {
  return page.$$eval('#timeline .fault-label', (labels) => labels.map((label) => {
    const { left, right, top, bottom } = label.getBoundingClientRect();
    const svg = label.closest('svg')!.getBoundingClientRect();
    return { text: label.textContent!, marks: Number(label.getAttribute('data-marks')), left, right, top, bottom, inside: left >= svg.left && right <= svg.right && top >= svg.top };
  }));
}
type Box = { left: number; right: number; top: number; bottom: number };
const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('the live view\'s fault labels, in Chromium at 1,400 px', () => {
  it('draws a restart, a 429 burst and four stream drops applied together, and then many more, with no label over another or over a line', { timeout: 60_000 }, async () => {
    // The server's clock stands still: every fault lands at one moment, so at one x, however long a
    // loaded machine takes between them (a restart that took a while put the next marks a few
    // pixels on, and their lines through its label).
    chaos = await startChaosServer({ dialect: 'amdahl', clock: manualClock() });
    const page = await open(`${chaos.control}/`, (p) => p.setViewportSize({ width: 1_400, height: 900 }));
    await shown(page, '#status[data-state="live"]');
    const session = await openSession(chaos.url);
    await callTool(chaos.url, session, 'echo', { text: 'before' });
    const burst: Fault[] = [
      { kind: 'restart' }, { kind: 'status', status: 429, count: 2, retryAfter: '1' },
      ...Array.from({ length: 4 }, () => ({ kind: 'drop-stream', afterEvents: 1, eventIds: false }) as const),
    ];
    await inject(chaos, burst); // within a few milliseconds of each other: one x
    const many: Fault[] = [
      { kind: 'evict', session: 'all' }, { kind: 'idle-budget', ms: 1_500 }, { kind: 'capacity', max: 3 }, { kind: 'dialect', name: 'go-sdk' },
      { kind: 'status', status: 503, count: 1 }, { kind: 'drop-stream', afterEvents: 1, eventIds: true }, { kind: 'status', status: 500, count: 3 },
    ];
    for (const [faults, total] of [[[], burst.length], [many, burst.length + many.length]] as const) {
      await inject(chaos, [...faults]);
      await page.locator('#timeline .fault').nth(total - 1).waitFor({ state: 'attached', timeout: SHOWN_WITHIN_MS });
      expect(await page.$$eval('#timeline .fault', (marks) => marks.length)).toBe(total);
      const boxes = await labelBoxes(page);
      const hover = await page.$$eval('#timeline .fault[data-label="hover"]', (marks) => marks.length);
      expect(boxes.reduce((sum, b) => sum + b.marks, 0) + hover).toBe(total); // every fault labelled, or told on hover
      for (const a of boxes) for (const b of boxes) if (a !== b) expect(overlap(a, b), `"${a.text}" over "${b.text}"`).toBe(false);
      expect(boxes.filter((b) => !b.inside)).toEqual([]);
      // A mark's line runs from its label down to the lanes: it crosses no other label.
      const lines = await page.$$eval('#timeline .fault > line:not(.bracket, .hit)', (all) => all.map((l) => l.getBoundingClientRect().toJSON() as Box));
      for (const line of lines) for (const box of boxes) expect(overlap({ ...line, left: line.left - 0.5, right: line.right + 0.5 }, box) && line.left > box.left, `a line through "${box.text}"`).toBe(false);
      if (faults.length === 0) expect(boxes.map((b) => b.text).sort()).toEqual(['4× drop-stream, no ids', 'restart', 'status 429 ×2']);
      else expect(hover).toBeGreaterThan(0); // more than six rows' worth at one x: the rest told on hover
    }
    expect(complaints).toEqual([]);
  });
});

describe('the live view\'s end, in Chromium', () => {
  /** Counts the page's WebSocket connections, and lets its timers run ahead (the page's own clock, not the test's). */
  async function watched(url: string) {
    let sockets = 0;
    const page = await open(url, async (p) => {
      p.on('websocket', () => void sockets++);
      await p.clock.install();
    });
    await shown(page, '#status[data-state="live"]');
    return { page, sockets: () => sockets };
  }

  it('ends calmly when the server stops in order: says so, keeps the drawing, with its end marked, and does not try again', { timeout: 60_000 }, async () => {
    chaos = await startChaosServer();
    const { page, sockets } = await watched(`${chaos.control}/`);
    await callTool(chaos.url, await openSession(chaos.url), 'echo', { text: 'one' });
    await inject(chaos, { kind: 'evict', session: 'all' });
    await shown(page, '.lane[data-reason="evicted"]');
    await chaos.stop();
    chaos = undefined;
    await shown(page, '#status[data-state="stopped"]');
    expect(await page.textContent('#status')).toMatch(/^server stopped at \d+\.\d s · the run is over$/);
    await shown(page, '.server-stopped .fault-label');
    await page.clock.runFor(30_000); // a page that retried would have tried 7 times by now
    expect(await page.textContent('#status')).toMatch(/^server stopped/);
    expect(sockets()).toBe(1);
    expect(await page.$$('.lane[data-reason="evicted"] .call[data-outcome="ok"]')).toHaveLength(3); // initialize, initialized, echo
    expect(await page.textContent('#events')).toContain('the server stopped');
    expect(complaints).toEqual([]);
  });

  it('tells a connection lost mid-run (the process killed) as such, and tries again', { timeout: START_CAP_MS + 60_000 }, async () => {
    child = await startChaosProcess();
    const { page, sockets } = await watched(`${child.control}/`);
    // From here the page's timers wait for the test: its retry (0.5 s after the close) comes when
    // the clock is run below, however long the machine takes to tell the close (a retry that came
    // first was told "cannot connect").
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
    process.kill(child.pid, 'SIGKILL');
    await shown(page, '#status[data-state="closed"]');
    expect(await page.textContent('#status')).toMatch(/^connection lost \(1006\) · again in 0\.5 s$/);
    await page.clock.runFor(1_000);
    await shown(page, '#status[data-state="closed"]:text-matches("^cannot connect")');
    expect(sockets()).toBeGreaterThan(1);
    expect(await page.$('.server-stopped')).toBeNull();
  });
});
