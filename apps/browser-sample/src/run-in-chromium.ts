import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { RuntimeOverhead, ScenarioSource } from '@mcp-resilience/scenarios';
import { build } from 'esbuild';
import { launchChromium, type LaunchedChromium } from '@mcp-resilience/chromium';
import type { Page } from 'playwright-core';
import { RELAY_PATH, relayChaosControl, type RelayedRequest } from './chaos-relay.ts';

/** The page source, bundled for the browser at each run (from src/ whether this runs from src/ or dist/). */
const PAGE = fileURLToPath(new URL('../src/page.ts', import.meta.url));

async function bundlePage(): Promise<string> {
  const result = await build({ entryPoints: [PAGE], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
  return result.outputFiles[0]!.text;
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).once('end', () => resolve(text)).once('error', reject);
  });
}

/**
 * The page's relay to the chaos control API: for the page only, as mcp-chaos's own control API
 * is (its Origin exactly, a loopback Host against DNS rebinding): another page on this machine
 * cannot drive the pool through it.
 */
async function relay(request: IncomingMessage, response: ServerResponse, origin: string): Promise<void> {
  if (request.method !== 'POST' || request.headers.origin !== origin || !LOOPBACK_HOST.test(request.headers.host ?? '')) {
    return void response.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"the relay serves this page only"}');
  }
  const answer = await relayChaosControl(JSON.parse(await readBody(request)) as RelayedRequest);
  response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.text);
}

/**
 * The page on an origin of its own: 127.0.0.1 and a free port, another origin than any chaos
 * server's; with the relay of its chaos control requests.
 *
 * @example
 * const { origin, server } = await servePage(await bundlePage());
 */
export async function servePage(script: string): Promise<{ origin: string; server: Server }> {
  let origin = '';
  const server = createServer((request, response) => {
    if (request.url === RELAY_PATH) return void relay(request, response, origin).catch(() => response.destroy());
    if (request.url === '/app.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    response.writeHead(request.url === '/' ? 200 : 404, { 'content-type': 'text/html' })
      .end('<!doctype html><title>browser-sample</title><body></body><script type="module" src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { origin, server };
}

/** The corpus takes about half a minute in the page, the full overhead measurement a minute or two: ten is a hang. */
const PAGE_WORK_CAP_MS = 600_000;

/**
 * The page in real Chromium, on its own 127.0.0.1 origin, given to `work` once its script is
 * loaded, for {@link PAGE_WORK_CAP_MS} at most. Everything it starts (the page server, Chromium
 * and its profile) is stopped before it settles. Chromium is the workspace's own, from npm
 * (`@mcp-resilience/chromium`).
 */
async function withPageInChromium<T>(work: (page: Page) => Promise<T>): Promise<T> {
  const { origin, server } = await servePage(await bundlePage());
  let browser: LaunchedChromium | undefined;
  let cap: ReturnType<typeof setTimeout> | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.context.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'runCorpusInPage' in globalThis);
    return await Promise.race([work(page), new Promise<never>((_, reject) => {
      cap = setTimeout(() => reject(new Error(`the page did not finish within ${PAGE_WORK_CAP_MS / 1000} s`)), PAGE_WORK_CAP_MS);
    })]);
  } finally {
    clearTimeout(cap);
    await browser?.close();
    await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  }
}

/**
 * Runs a scenario corpus in real Chromium through `@mcp-resilience/browser`, in a page on its own
 * 127.0.0.1 origin, against the mcp-chaos pool at `control` (another origin), and resolves to the
 * canonical report. Everything it starts (the page server, Chromium and its profile) is stopped
 * before it settles.
 *
 * @example
 * const report = await runInChromium(loadCorpus(), chaos.control);
 */
export function runInChromium(sources: readonly ScenarioSource[], control: string): Promise<string> {
  return withPageInChromium((page) => page.evaluate(([s, c]) =>
    (globalThis as unknown as { runCorpusInPage(s: unknown, c: string): Promise<string> }).runCorpusInPage(s, c), [sources, control] as const));
}

/**
 * The shared overhead measurement in real Chromium (the page's `performance.now()`, no CPU
 * figures), against the mcp-chaos pool at `control`: plain SDK client vs the same client with
 * `@mcp-resilience/browser`'s fetch, cross-origin, on SSE and on JSON answers.
 *
 * @example
 * const overhead = await measureOverheadInChromium(chaos.control, 'quick');
 */
export function measureOverheadInChromium(control: string, size: 'quick' | 'full'): Promise<RuntimeOverhead> {
  return withPageInChromium((page) => page.evaluate(([c, s]) =>
    (globalThis as unknown as { measureOverheadInPage(c: string, s: string): Promise<RuntimeOverhead> }).measureOverheadInPage(c, s), [control, size] as const));
}
