// The sample Worker as it would be deployed, through the same code as scripts/run.mjs:
// `wrangler deploy --dry-run --outdir` builds it, Miniflare runs that bundle in workerd (code
// generation refused, as on Cloudflare), against an mcp-chaos process started and stopped by PID
// here. The whole corpus through it, compared with every other runtime, is `pnpm proof` (proof/).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, buildWorker, startWorker } from '../scripts/workerd-corpus.mjs';

const dir = mkdtempSync(join(tmpdir(), 'cloudflare-sample-'));
let chaos: ChaosProcess | undefined;
let worker: Miniflare | undefined;
let bundle = '';

beforeAll(async () => {
  const built = buildWorker(dir);
  bundle = built.script;
  console.log(`cloudflare-sample bundle (wrangler deploy --dry-run): ${built.upload}`);
  chaos = await startChaosProcess();
  worker = await startWorker(bundle);
}, 300_000); // the build (150 s at most), then mcp-chaos and workerd (a minute each at most)
afterAll(async () => {
  await worker?.dispose();
  await chaos?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the built Worker', () => {
  it('holds no code generation: no eval, no new Function, no Ajv', () => {
    expect(bundle).not.toMatch(/\beval\b/); // not called, not aliased, not named
    expect(bundle).not.toMatch(/\bnew\s+Function\s*\(/); // what Ajv brings (packages/cloudflare's validator test shows it there)
    expect(bundle).not.toMatch(/node_modules\/ajv\//); // aliased to @mcp-resilience/cloudflare/no-ajv
    // Function named anywhere is zod's JIT, through an alias, and only once it has found code
    // generation allowed; on Workers it checks the user agent first and never tries.
    expect(bundle.match(/\bconst F = Function;|\bFunction\b/g)).toEqual(['const F = Function;', 'const F = Function;']);
    expect(bundle).toContain('"Cloudflare-Workers"?.includes("Cloudflare")');
  });

  it('needs no nodejs_compat', () => {
    expect(readFileSync(join(APP, 'wrangler.jsonc'), 'utf8')).not.toContain('nodejs_compat');
    expect(bundle).not.toMatch(/from\s*["']node:/);
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
      expect(after.events.filter((e) => e.type !== 'replayed').map((e) => e.type)).toEqual(['session-lost', 'session-started', 'session-reinitialized']);
      // The call is replayed once; the resumed client's GET stream too, when it met the loss before the new session was there.
      const replayed = after.events.filter((e) => e.type === 'replayed').map((e) => (e as { method?: string }).method ?? 'GET stream');
      expect(replayed.filter((what) => what !== 'GET stream')).toEqual(['tools/call']);
      expect(replayed.length).toBeLessThanOrEqual(2);
      expect(await initializes()).toBe(2);
    } finally {
      await fetch(server.control, { method: 'DELETE' });
    }
  });
});
