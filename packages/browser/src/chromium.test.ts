import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startCorsProxy } from './test-support/cors-proxy.ts';
import { startDropAfterRun } from './test-support/drop-after-run.ts';
import { chaosTestbed, chromiumTestbed, wireLog, type PoolServer } from './test-support/harness.ts';
import { startStatelessServer } from './test-support/stateless-server.ts';

// Real Chromium, a page on its own 127.0.0.1 origin, real MCP servers on others: cross-origin, as in production.
const { context, open, origin } = chromiumTestbed();
const pool = chaosTestbed();
let chaos: PoolServer;

declare const mcp: typeof import('./index.ts') & { Client: unknown };

describe('in Chromium, cross-origin: what CORS and the network let through', () => {
  it("names the missing Access-Control-Expose-Headers once the server's 400 proves it hid Mcp-Session-Id (SESSION_ID_HIDDEN)", async () => {
    chaos = await pool.server({ exposeSessionId: false });
    const page = await open();
    const error = await page.evaluate(async (url) => {
      try {
        await mcp.connect(url, { persist: false });
        return undefined;
      } catch (e) {
        const error = e as { code?: string; message: string; details?: unknown };
        return { code: error.code, message: error.message, details: error.details };
      }
    }, chaos.url);
    expect(error).toMatchObject({ code: 'SESSION_ID_HIDDEN', details: { fix: 'Access-Control-Expose-Headers: Mcp-Session-Id' } });
    expect(error!.message).toContain('Access-Control-Expose-Headers: Mcp-Session-Id');
    // the proof: the server refused the first request that went without the id (400), and nothing went after it
    expect((await wireLog(chaos.control)).map((e) => `${e.httpMethod} ${e.rpcMethod ?? ''} ${e.status}`))
      .toEqual(['POST initialize 200', 'POST notifications/initialized 400']);
  });


  it('goes on with a server that runs without sessions, cross-origin: no Mcp-Session-Id, nothing hidden', async () => {
    const stateless = await startStatelessServer();
    try {
      const page = await open();
      const outcome = await page.evaluate(async (url) => {
        const events: string[] = [];
        const client = await mcp.connect(url, { persist: false, onEvent: (e) => events.push(e.type) });
        const text = ((await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] }).content[0]!.text;
        return { text, events };
      }, stateless.url);
      expect(outcome).toEqual({ text: 'no session kept', events: ['session-started'] });
      expect(stateless.seen.filter((r) => r.httpMethod === 'POST')).toEqual([
        { httpMethod: 'POST', rpcMethod: 'initialize', sessionId: false, status: 200 },
        { httpMethod: 'POST', rpcMethod: 'notifications/initialized', sessionId: false, status: 202 },
        { httpMethod: 'POST', rpcMethod: 'tools/call', sessionId: false, status: 200 },
      ]);
    } finally {
      await stateless.close();
    }
  });


  it('reads a server that refuses the page\'s origin (no CORS headers) as blocked or unreachable: the browser\'s reading is the cause of the give-up', async () => {
    const seen: string[] = [];
    const noCors = createServer((request, response) => (seen.push(request.method!), response.writeHead(200, { 'content-type': 'application/json' }).end('{}')));
    await new Promise<void>((resolve) => noCors.listen(0, '127.0.0.1', resolve));
    try {
      const page = await open();
      const error = await page.evaluate(async (url) => {
        try {
          await mcp.connect(url, { persist: false, backoff: { initialMs: 10, maxMs: 20 } });
          return undefined;
        } catch (e) {
          const error = e as Error & { code?: string; cause?: Error & { cause?: Error } };
          return { code: error.code, cause: error.cause?.message, browser: error.cause?.cause?.message };
        }
      }, `http://127.0.0.1:${(noCors.address() as { port: number }).port}/mcp`);
      expect(error).toEqual({
        code: 'RETRY_EXHAUSTED', // initialize may be sent again, so it was, and the retries ran out
        cause: expect.stringMatching(/^Failed to fetch: blocked or unreachable \(CORS, network\)/),
        browser: 'Failed to fetch', // Chromium's own words: the same for a refused origin, a refused connection, a dropped one
      });
      expect(new Set(seen)).toEqual(new Set(['OPTIONS'])); // the preflight was refused: no POST ever left the browser
    } finally {
      noCors.closeAllConnections();
      noCors.close();
    }
  });

  it("keeps its session and reads Retry-After through exactly the CORS headers the README says a server must send", async () => {
    chaos = await pool.server();
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const lines = /## The CORS headers a server must send[\s\S]*?```\n([\s\S]*?)```/.exec(readme)![1]!.trim().split('\n');
    const headers = Object.fromEntries(lines.map((line) => line.split(/: (.*)/s).slice(0, 2).map((part) => part.trim())
      .map((part, i) => (i === 0 ? part.toLowerCase() : part.replace('https://app.example.com', origin())))));
    expect(Object.keys(headers)).toContain('access-control-expose-headers');
    const proxy = await startCorsProxy(chaos.url, headers);
    try {
      const page = await open();
      await page.evaluate(async (url) => {
        const events: { type: string; delayMs?: number }[] = [];
        const client = await mcp.connect(url, { persist: false, onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 20 } });
        await client.callTool({ name: 'echo', arguments: { text: 'before' } });
        Object.assign(globalThis, { client, events });
      }, proxy.url);
      await fetch(`${chaos.control}/faults`, {
        method: 'POST', body: JSON.stringify([{ kind: 'evict', session: 'all' }, { kind: 'status', status: 429, retryAfter: '1', count: 1, rpcMethod: 'tools/call' }]),
      });
      const events = await page.evaluate(async () => {
        const { client, events } = globalThis as unknown as { client: { callTool(c: unknown): Promise<unknown> }; events: { type: string; delayMs?: number }[] };
        await client.callTool({ name: 'echo', arguments: { text: 'after' } });
        return events;
      });
      // the session id was readable (a new one, after the eviction), and the 429's Retry-After was honoured, not the 10 ms backoff
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['session-lost', 'session-reinitialized', 'replayed', 'backed-off']));
      expect(events.find((e) => e.type === 'backed-off')!.delayMs).toBeGreaterThanOrEqual(1000);
    } finally {
      await proxy.close();
    }
  });

  it('connects, recovers an eviction, and reads a refused fetch while online as blocked or unreachable', async () => {
    chaos = await pool.server();
    const page = await open();
    await page.evaluate(async (url) => {
      const events: string[] = [];
      const client = await mcp.connect(url, { persist: false, onEvent: (e) => events.push(e.type), backoff: { initialMs: 10, maxMs: 50 } });
      Object.assign(globalThis, { client, events });
      await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    }, chaos.url);
    await fetch(`${chaos.control}/faults`, { method: 'POST', body: JSON.stringify([{ kind: 'evict', session: 'all' }]) });
    const text = await page.evaluate(async () => {
      const { client } = globalThis as unknown as { client: { callTool(c: unknown): Promise<{ content: { text: string }[] }> } };
      return (await client.callTool({ name: 'echo', arguments: { text: 'after' } })).content[0]!.text;
    });
    expect(text).toBe('after');
    expect(await page.evaluate(() => (globalThis as unknown as { events: string[] }).events)).toEqual(
      expect.arrayContaining(['session-lost', 'session-reinitialized', 'replayed']));
    const refused = await page.evaluate(async () => {
      // the adapter's fetch port, as the engine calls it: a refused connection reads like a CORS refusal
      return mcp.browserFetch(fetch)('http://127.0.0.1:9/mcp', { method: 'GET' }).then(() => 'answered', (e: Error) => e.message);
    });
    expect(refused).toMatch(/^Failed to fetch: blocked or unreachable \(CORS, network\)/);
  });


  it('pauses its wait while offline, counts the failure as not sent, and goes at once when back online', async () => {
    chaos = await pool.server();
    const page = await open();
    await page.evaluate(async (url) => {
      const events: { type: string }[] = [];
      const client = await mcp.connect(url, { persist: false, onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 20 } });
      Object.assign(globalThis, { client, events });
    }, chaos.url);
    // The SDK's standalone GET stream opens after the session does; sent while offline, it would
    // wait for the network too (a second wait, seen on a loaded CI machine). Offline only once the server has it.
    // It opens within milliseconds: 10 s is a hang (the poll's own default, 1 s, is not, on a busy machine).
    await expect.poll(async () => (await wireLog(chaos.control)).some((e) => e.httpMethod === 'GET'), {
      timeout: 10_000, message: 'hung: the SDK\'s standalone GET was not in the server\'s wire log 10 s after connecting',
    }).toBe(true);
    await context().setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.evaluate(() => {
      const { client } = globalThis as unknown as { client: { callTool(c: unknown): Promise<{ content: { text: string }[] }> } };
      Object.assign(globalThis, { pending: client.callTool({ name: 'echo', arguments: { text: 'offline' } }).then((r) => r.content[0]!.text, (e: Error) => `failed: ${e.message}`) });
    });
    // it failed while offline, was not sent, and the engine waits for the network instead of giving up
    await page.waitForFunction(() => (globalThis as unknown as { events: { type: string }[] }).events.some((e) => e.type === 'server-wait-started'));
    expect((await wireLog(chaos.control)).filter((e) => e.rpcMethod === 'tools/call')).toEqual([]); // nothing went out while offline
    await context().setOffline(false);
    expect(await page.evaluate(() => (globalThis as unknown as { pending: Promise<string> }).pending)).toBe('offline');
    const events = await page.evaluate(() => (globalThis as unknown as { events: { type: string; outcome?: string; attempts?: number }[] }).events);
    const ended = events.filter((e) => e.type === 'server-wait-ended');
    expect(ended).toEqual([expect.objectContaining({ outcome: 'reachable' })]);
    expect(ended[0]!.attempts).toBeLessThanOrEqual(2); // paused, not spinning
    expect((await wireLog(chaos.control)).filter((e) => e.rpcMethod === 'tools/call')).toHaveLength(1); // sent once, after coming back
  });

  it('a call sent online whose answer is lost once the browser went offline may have run: OUTCOME_UNKNOWN, never sent again when the network is back', async () => {
    chaos = await pool.server();
    // The order runs on the server; then the device loses its network, and the answer with it.
    const gateway = await startDropAfterRun(chaos.url, 'record', () => context().setOffline(true));
    try {
      const page = await open();
      await page.evaluate(async (url) => {
        const events: { type: string }[] = [];
        const client = await mcp.connect(url, { persist: false, onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 20 } });
        Object.assign(globalThis, { client, events });
      }, gateway.url);
      expect(await page.evaluate(() => navigator.onLine)).toBe(true); // online when the call starts
      await page.evaluate(() => {
        const { client } = globalThis as unknown as { client: { callTool(c: unknown): Promise<unknown> } };
        const pending = client.callTool({ name: 'record', arguments: { key: 'create_order-1' } })
          .then(() => 'answered', (e: { code?: string; message: string }) => e.code ?? e.message);
        Object.assign(globalThis, { pending });
      });
      // The engine's decision on the failed call: give up, or wait for the network to send it again.
      await page.waitForFunction(() => (globalThis as unknown as { events: { type: string; method?: string }[] }).events
        .some((e) => e.method === 'tools/call' && (e.type === 'gave-up' || e.type === 'server-wait-started')));
      expect(await page.evaluate(() => navigator.onLine)).toBe(false); // it failed while offline
      const calls = await page.evaluate(() => (globalThis as unknown as { events: { type: string; method?: string }[] }).events.filter((e) => e.method === 'tools/call'));
      expect(calls.map((e) => e.type)).toEqual(['gave-up']); // no server wait: offline now is no proof it was not sent
      expect(await page.evaluate(() => (globalThis as unknown as { pending: Promise<string> }).pending)).toBe('OUTCOME_UNKNOWN');
      await context().setOffline(false);
      const state = (await (await fetch(`${chaos.control}/state`)).json()) as { ledger: Record<string, number> };
      expect(state.ledger).toEqual({ 'create_order-1': 1 });
      expect((await wireLog(chaos.control)).filter((e) => e.rpcMethod === 'tools/call')).toHaveLength(1);
      expect(gateway.posts.filter((m) => m === 'tools/call')).toEqual(['tools/call']);
    } finally {
      await gateway.close();
    }
  });
});
