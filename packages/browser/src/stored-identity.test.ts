import { describe, expect, it } from 'vitest';
import { chaosTestbed, chromiumTestbed, wireLog, type PoolServer } from './test-support/harness.ts';

// Real Chromium, a page on its own 127.0.0.1 origin, mcp-chaos servers on others: whose session a tab goes on with.
const { open } = chromiumTestbed();
const pool = chaosTestbed();
let chaos: PoolServer;

declare const mcp: typeof import('./index.ts') & { Client: unknown };

describe('in Chromium, a stored session belongs to one user', () => {
  it('user B signing in after user A in the same tab gets a session of its own, never A\'s', async () => {
    chaos = await pool.server();
    const page = await open();
    await page.evaluate(async (url) => {
      for (const identity of ['user:a', 'user:b']) {
        const client = await mcp.connect(url, { identity });
        await client.callTool({ name: 'echo', arguments: { text: identity } });
      }
    }, chaos.url);
    const log = await wireLog(chaos.control);
    expect(log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(2);
    expect(log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.sessionOrdinal)).toEqual([1, 2]);
  });

  it('connect() without an identity while sessions persist rejects INVALID_OPTION before sending anything; persist: false needs none', async () => {
    chaos = await pool.server();
    const page = await open();
    const refused = await page.evaluate(async (url) => {
      const error = await mcp.connect(url).then(() => undefined, (e: { code?: string; details?: unknown }) => ({ code: e.code, details: e.details }));
      return error;
    }, chaos.url);
    expect(refused).toEqual({ code: 'INVALID_OPTION', details: { option: 'identity' } });
    expect(await wireLog(chaos.control)).toEqual([]);
    await page.evaluate(async (url) => void (await mcp.connect(url, { persist: false })), chaos.url);
    expect((await wireLog(chaos.control)).filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
  });

  it('after a reload, the resumed client opens its GET stream and knows the server\'s version; an ended session leaves sessionStorage', async () => {
    chaos = await pool.server();
    const page = await open();
    await page.evaluate(async (url) => {
      const client = await mcp.connect(url, { identity: 'user:a' });
      await client.callTool({ name: 'echo', arguments: { text: 'one' } });
    }, chaos.url);
    await page.reload();
    await page.waitForFunction(() => 'mcp' in globalThis);
    const resumed = await page.evaluate(async (url) => {
      const client = await mcp.connect(url, { identity: 'user:a' });
      (globalThis as unknown as { resumed: unknown }).resumed = client;
      return { server: client.getServerVersion() };
    }, chaos.url);
    expect(resumed.server).toEqual({ name: 'mcp-chaos', version: '0.0.0' });
    // Each page's client opened a GET stream on session 1: the first page's, then the resumed one's.
    await expect.poll(async () => (await wireLog(chaos.control)).filter((e) => e.httpMethod === 'GET' && e.sessionOrdinal === 1).length, {
      timeout: 10_000, message: 'hung: the resumed client\'s GET stream was not in the wire log within 10 s',
    }).toBe(2);
    await page.evaluate(async () => {
      const client = (globalThis as unknown as { resumed: { transport: { terminateSession(): Promise<void> } } }).resumed;
      await client.transport.terminateSession();
    });
    // The store's removal is background work: it lands within milliseconds of the DELETE's answer.
    await expect.poll(() => page.evaluate(() => Object.keys(sessionStorage)), { timeout: 10_000, message: 'hung: the ended session was still stored 10 s after its DELETE' })
      .toEqual([]);
    const log = await wireLog(chaos.control);
    expect(log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
    expect(log.filter((e) => e.httpMethod === 'DELETE').map((e) => e.sessionOrdinal)).toEqual([1]);
  });
});
