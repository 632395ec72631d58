import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from './chaos-clock.ts';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { BREAK_AFTER_DELIVERY_MS } from './stream-dropper.ts';
import { launchChromium, type LaunchedChromium } from '@mcp-resilience/chromium';
import { inject, openSession, REVISION } from './test-support/raw-client.ts';

const TRIES = 10;
let browser: LaunchedChromium | undefined;
let chaos: ChaosServer | undefined;
let site: Server | undefined;
// The cut waits on this clock: the test moves it once the page holds what came before the break,
// so that a busy machine (a page that reads late) cannot turn the break into a lost event.
const clock = manualClock();

beforeAll(async () => {
  browser = await launchChromium();
  chaos = await startChaosServer({ clock });
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title>'));
  await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await browser?.close();
  await chaos?.stop();
  await new Promise<void>((resolve) => (site ? (site.closeAllConnections(), site.close(() => resolve())) : resolve()));
});

describe('drop-stream, read by Chromium', () => {
  it(`delivers the events before the break to a page (${TRIES} of ${TRIES}): their ids are what a resume needs`, { timeout: 60_000 }, async () => {
    const page = await browser!.context.newPage();
    await page.exposeFunction('holdsWhatCameFirst', () => clock.advance(BREAK_AFTER_DELIVERY_MS));
    await page.goto(`http://127.0.0.1:${(site!.address() as { port: number }).port}/`);
    const session = await openSession(chaos!.url);
    await inject(chaos!, { kind: 'drop-stream', afterEvents: 1, rpcMethod: 'tools/call', count: TRIES });
    const seen = await page.evaluate(async ({ url, session, revision, tries }) => {
      const texts: string[] = [];
      for (let id = 1; id <= tries; id++) {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': revision },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }),
        });
        const reader = response.body!.getReader();
        let text = '';
        try {
          // What comes before the break (the priming event, whole); then the break is let through.
          while (!/\r?\n\r?\n/.test(text)) {
            const { done, value } = await reader.read();
            if (done) break;
            text += new TextDecoder().decode(value);
          }
          await (globalThis as unknown as { holdsWhatCameFirst(): Promise<void> }).holdsWhatCameFirst();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            text += new TextDecoder().decode(value);
          }
          texts.push(`${text}(ended)`);
        } catch {
          texts.push(`${text}(broken)`);
        }
      }
      return texts;
    }, { url: chaos!.url, session, revision: REVISION, tries: TRIES });
    // The priming event (an id, no data) came through every time, then the break; never the answer.
    expect(seen.filter((text) => !/^id: \S+\r?\ndata: ?\r?\n\r?\n\(broken\)$/.test(text))).toEqual([]);
  });
});
