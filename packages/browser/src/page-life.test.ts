import { describe, expect, it } from 'vitest';
import { chaosTestbed, chromiumTestbed, wireLog, type PoolServer } from './test-support/harness.ts';

// Real Chromium, a page on its own 127.0.0.1 origin, mcp-chaos servers on others: what a page's life does to its session.
const { open } = chromiumTestbed();
const pool = chaosTestbed();
let chaos: PoolServer;

declare const mcp: typeof import('./index.ts') & { Client: unknown };

describe('in Chromium, through a page\'s life', () => {
  it('goes on with the stored session after a reload (sessionStorage), without a new initialize', async () => {
    chaos = await pool.server();
    const page = await open();
    const first = await page.evaluate(async (url) => {
      const client = await mcp.connect(url, { identity: 'user:a' });
      await client.callTool({ name: 'echo', arguments: { text: 'one' } });
      return Object.keys(sessionStorage);
    }, chaos.url);
    expect(first).toEqual([expect.stringMatching(/^mcp-resilience:session:[0-9a-f]{64}$/)]); // a digest: no URL, no identity
    await page.reload();
    await page.waitForFunction(() => 'mcp' in globalThis);
    const text = await page.evaluate(async (url) => {
      const client = await mcp.connect(url, { identity: 'user:a' });
      return ((await client.callTool({ name: 'echo', arguments: { text: 'two' } })) as { content: { text: string }[] }).content[0]!.text;
    }, chaos.url);
    expect(text).toBe('two');
    const log = await wireLog(chaos.control);
    expect(log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
    expect(log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.sessionOrdinal)).toEqual([1, 1]);
    expect(log.filter((e) => e.httpMethod === 'DELETE')).toEqual([]); // a reload keeps the session
  });

  it('after a reload, the resumed client knows the protocol version and the capabilities its session negotiated', async () => {
    chaos = await pool.server();
    const page = await open();
    const negotiated = async () => page.evaluate(async (url) => {
      const client = await mcp.connect(url, { identity: 'user:a' });
      const transport = client.transport as unknown as { protocolVersion?: string };
      return { version: transport.protocolVersion, capabilities: client.getServerCapabilities() };
    }, chaos.url);
    const before = await negotiated();
    expect(before.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(before.capabilities).toMatchObject({ tools: {} });
    await page.reload();
    await page.waitForFunction(() => 'mcp' in globalThis);
    expect(await negotiated()).toEqual(before);
    expect((await wireLog(chaos.control)).filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
  });


  it('ends the session with a keepalive DELETE on pagehide when nothing persists it', async () => {
    chaos = await pool.server();
    const page = await open();
    await page.evaluate(async (url) => {
      const client = await mcp.connect(url, { persist: false });
      await client.callTool({ name: 'echo', arguments: { text: 'bye' } });
    }, chaos.url);
    await page.goto('about:blank');
    // The keepalive DELETE reaches the server within milliseconds: 10 s is a hang.
    await expect.poll(async () => (await wireLog(chaos.control)).filter((e) => e.httpMethod === 'DELETE'), {
      timeout: 10_000, message: 'hung: the keepalive DELETE of session 1 was not in the server\'s wire log 10 s after pagehide',
    })
      .toEqual([expect.objectContaining({ httpMethod: 'DELETE', sessionOrdinal: 1 })]);
  });

  it("keeps the session in localStorage for the origin's other tabs (persist: 'local'), never its credentials", async () => {
    chaos = await pool.server();
    const auth = { transportOptions: { requestInit: { headers: { Authorization: 'Bearer tab-secret' } } } };
    const call = (tab: Awaited<ReturnType<typeof open>>, text: string) => tab.evaluate(async ([url, text, options]) => {
      const client = await mcp.connect(url, { ...options, identity: 'user:a', persist: 'local' });
      return ((await client.callTool({ name: 'echo', arguments: { text } })) as { content: { text: string }[] }).content[0]!.text;
    }, [chaos.url, text, auth] as const);
    const first = await open();
    expect(await call(first, 'one')).toBe('one');
    const stored = await first.evaluate(() => ({ session: Object.keys(sessionStorage), local: { ...localStorage } }));
    expect(stored.session).toEqual([]);
    expect(Object.keys(stored.local)).toEqual([expect.stringMatching(/^mcp-resilience:session:[0-9a-f]{64}$/)]);
    expect(JSON.stringify(stored.local)).not.toMatch(/tab-secret|authorization/i); // the credential stays in memory
    expect(await call(await open(), 'two')).toBe('two'); // another tab of the origin
    const log = await wireLog(chaos.control);
    expect(log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
    expect(log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.sessionOrdinal)).toEqual([1, 1]);
  });

  it('ends a wait that came due while its timer was held back as soon as the tab is shown again (visibilitychange), and only that one', async () => {
    const page = await open();
    const ended = await page.evaluate(async () => {
      const ended: string[] = [];
      const stop = new AbortController();
      const wallClock = Date.now;
      try {
        void mcp.browserSleep(100).then(() => ended.push('due'));
        void mcp.browserSleep(60_000, stop.signal).then(() => ended.push('not due'), () => {});
        // A background tab holds timers back; the wall clock goes on. Here the test moves the page's wall
        // clock 150 ms on, past the first wait's due time, within this one task (so no timer has had a
        // turn), then the tab is shown again: headless Chromium never hides a page (bringToFront, a
        // minimized window and lifecycle states all leave it 'visible'), so the event the browser sends
        // on showing a tab is sent here.
        Date.now = () => wallClock() + 150;
        document.dispatchEvent(new Event('visibilitychange'));
        for (let i = 0; i < 5; i++) await Promise.resolve(); // microtasks only: no timer has had a turn
      } finally {
        Date.now = wallClock;
        stop.abort();
      }
      return ended;
    });
    expect(ended).toEqual(['due']);
  });
});
