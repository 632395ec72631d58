import { createServer, type Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
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
  chaos = undefined;
  await new Promise<void>((resolve) => (foreign ? (foreign.closeAllConnections(), foreign.close(() => resolve())) : resolve()));
  foreign = undefined;
  complaints.length = 0;
});

async function open(url: string): Promise<Page> {
  const page = await context.newPage();
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
