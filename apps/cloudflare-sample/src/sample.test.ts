// The sample Worker as it would be deployed: `wrangler deploy --dry-run --outdir` builds it, and
// the Miniflare API runs that bundle in workerd (code generation disallowed, as on Cloudflare).
// One mcp-chaos process (started and stopped by PID here) serves both the Node sample's run
// and the Worker's, one scenario per request; the two reports are compared.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { compareReports, corpusReport, parseReport, renderReport, type CorpusReport, type ScenarioReport } from '@mcp-resilience/scenarios';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const APP = fileURLToPath(new URL('..', import.meta.url));
const SCENARIOS = fileURLToPath(new URL('../../../conformance/scenarios/', import.meta.url));
const NODE_MAIN = fileURLToPath(new URL('../../node-sample/dist/main.js', import.meta.url));
const WRANGLER = join(APP, 'node_modules', '.bin', 'wrangler');
const files = readdirSync(SCENARIOS).filter((f) => f !== 'README.md').sort();

const out = mkdtempSync(join(tmpdir(), 'cloudflare-sample-'));
let chaos: ChaosProcess | undefined;
let worker: Miniflare | undefined;
let bundle = '';
let nodeReport: CorpusReport | undefined;
let workerdReport: CorpusReport | undefined;

/** `wrangler deploy --dry-run --outdir`: the bundle a deploy would upload, built with no account. */
function buildWorker(): string {
  const built = spawnSync(WRANGLER, ['deploy', '--dry-run', '--outdir', join(out, 'dist')], {
    cwd: APP, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(out, 'logs') },
  });
  expect(built.status, built.stderr + built.stdout).toBe(0);
  return join(out, 'dist', 'worker.js');
}

beforeAll(async () => {
  const script = buildWorker();
  bundle = readFileSync(script, 'utf8');
  console.log(`cloudflare-sample bundle: ${(statSync(script).size / 1024).toFixed(1)} KiB (wrangler deploy --dry-run)`);
  chaos = await startChaosProcess();
  const node = spawnSync(process.execPath, [NODE_MAIN, '--chaos', chaos.control], { encoding: 'utf8' });
  nodeReport = parseReport(node.stdout);
  worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.js', contents: bundle }], compatibilityDate: '2026-04-20', cf: false,
    durableObjects: { MCP_SESSIONS: { className: 'McpSessionStore', useSQLite: true } },
  });
  const reports: ScenarioReport[] = [];
  for (const file of files) {
    const query = new URLSearchParams({ chaos: chaos.control, file });
    const response = await worker.dispatchFetch(`http://sample/scenario?${query}`, { method: 'POST', body: readFileSync(join(SCENARIOS, file), 'utf8') });
    reports.push(await response.json() as ScenarioReport);
  }
  workerdReport = corpusReport('workerd', reports);
}, 300_000);
afterAll(async () => {
  await worker?.dispose();
  await chaos?.stop();
  rmSync(out, { recursive: true, force: true });
});

describe('the built Worker', () => {
  it('holds no code generation: no eval, no new Function, no Ajv', () => {
    expect(bundle).not.toMatch(/\beval\s*\(/);
    expect(bundle).not.toMatch(/\bnew\s+Function\s*\(/);
    expect(bundle).not.toMatch(/node_modules\/ajv\//); // aliased to @mcp-resilience/cloudflare/no-ajv
    // zod's JIT reaches Function through an alias, only once it has found code generation
    // allowed; on Workers it checks the user agent first and never tries.
    expect(bundle.match(/= Function;/g)).toHaveLength(2);
    expect(bundle).toContain('"Cloudflare-Workers"?.includes("Cloudflare")');
  });

  it('needs no nodejs_compat', () => {
    expect(readFileSync(join(APP, 'wrangler.jsonc'), 'utf8')).not.toContain('nodejs_compat');
    expect(bundle).not.toMatch(/from\s*["']node:/);
  });
});

describe('the corpus in workerd, one scenario per request', () => {
  for (const file of files) {
    it(file, () => {
      const report = workerdReport!.scenarios.find((s) => `${s.name}.json` === file || s.name === file);
      expect(report, `no report for ${file}`).toBeDefined();
      expect(report!.mismatches).toEqual([]);
      expect(report!.ok).toBe(true);
    });
  }

  it('comes out as the Node sample\'s report, byte for byte but for declared differences', () => {
    expect(nodeReport!.scenarios).toHaveLength(files.length);
    const comparison = compareReports(nodeReport!, workerdReport!);
    expect(comparison.undeclared).toEqual([]);
    expect(comparison.same).toBe(true);
    if (comparison.declared.length === 0) expect(renderReport(workerdReport!)).toBe(renderReport({ ...nodeReport!, runtime: 'workerd' }));
  });
});

describe('a session shared by two requests through the Durable Object', () => {
  it('is reused without an initialize, and an eviction between requests costs one re-initialization on the wire', async () => {
    const server = await (await fetch(`${chaos!.control}/servers`, { method: 'POST', body: '{}' })).json() as { url: string; control: string };
    try {
      const initializes = async () =>
        ((await (await fetch(`${server.control}/state`)).json()) as { log: { rpcMethod?: string }[] }).log.filter((e) => e.rpcMethod === 'initialize').length;
      const call = async (text: string) =>
        (await worker!.dispatchFetch(`http://sample/call?${new URLSearchParams({ url: server.url, text })}`)).json() as Promise<{ text: string; events: { type: string }[] }>;
      expect(await call('one')).toMatchObject({ text: 'one', events: [{ type: 'session-started' }] });
      expect(await call('two')).toEqual({ text: 'two', events: [] });
      expect(await initializes()).toBe(1);
      await fetch(`${server.control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'evict', session: 'all' }) });
      const after = await call('three');
      expect(after.text).toBe('three');
      expect(after.events.map((e) => e.type)).toEqual(['session-lost', 'session-started', 'session-reinitialized', 'replayed']);
      expect(await initializes()).toBe(2);
    } finally {
      await fetch(server.control, { method: 'DELETE' });
    }
  });
});
