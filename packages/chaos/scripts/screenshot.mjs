// `pnpm --filter @mcp-resilience/chaos screenshot`: the live view in Chromium while official SDK
// clients go through churn, saved as docs/live-view.png (the picture in the READMEs). Not a test.
// Needs the package built; Chromium is the workspace's own (@mcp-resilience/chromium, or CHROMIUM=path).
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium } from '@mcp-resilience/chromium';
import { startChaosServer } from '../dist/index.js';

const OUT = fileURLToPath(new URL('../../../docs/live-view.png', import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An SDK client as applications write them: on a failed call, a new client (and session). */
async function worker(url, name, until) {
  let client;
  const open = async () => {
    client = new Client({ name, version: '1.0.0' });
    client.onerror = () => {};
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  };
  while (Date.now() < until) {
    try {
      if (!client) await open();
      await client.callTool({ name: 'echo', arguments: { text: name } }, undefined, { timeout: 2_000 });
    } catch {
      await client?.close().catch(() => {});
      client = undefined;
    }
    await sleep(140);
  }
  await client?.close().catch(() => {});
}

const browser = await launchChromium({ viewport: { width: 1200, height: 560 }, deviceScaleFactor: 1 });
const chaos = await startChaosServer({ dialect: 'amdahl' });
try {
  const page = await browser.context.newPage();
  await page.goto(`${chaos.control}/`);
  await page.waitForSelector('#status[data-state="live"]');
  // The clients here open no GET stream (405), as many servers offer none: the lanes show the calls.
  await chaos.applyFaults([{ kind: 'status', status: 405, httpMethod: 'GET', count: 10_000 }]);
  const until = Date.now() + 7_000;
  const workers = [worker(chaos.url, 'a', until), sleep(300).then(() => worker(chaos.url, 'b', until))];
  const script = [
    [1_200, { kind: 'evict', session: 'oldest' }],
    [2_300, { kind: 'status', status: 429, count: 2, retryAfter: '1' }],
    [3_300, { kind: 'restart', downMs: 400 }],
    [4_800, { kind: 'drop-stream', afterEvents: 1, eventIds: false }],
    [5_600, { kind: 'evict', session: 'all' }],
  ];
  const started = Date.now();
  for (const [atMs, fault] of script) {
    await sleep(atMs - (Date.now() - started));
    await chaos.applyFaults([fault]);
  }
  await Promise.all(workers);
  await page.waitForSelector('.call[data-outcome="dropped"]');
  await sleep(600); // one more frame of the drawing
  await page.screenshot({ path: OUT, fullPage: true });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await chaos.stop();
}
