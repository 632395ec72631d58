import { START_CAP_MS } from '@mcp-resilience/chaos/process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimeline } from './counting-fetch.ts';
import { initializesAfter, sendsPerCall, sentAfter, sessionAt, trace } from './invariants.ts';
import { connectRawEngineClient, type RawEngineClient } from './raw-engine-client.ts';
import { connectClient, type TestClient } from './sdk-clients.ts';
import { startServer, type RunningServer } from './server-process.ts';
import type { RealServer } from './servers.ts';

/** The server expires an idle session within a sweep or two of its timeout (a few seconds here): 30 s is a hang. */
const EXPIRY_HANG_MS = 30_000;

/**
 * Idle expiry on a server with a session-timeout setting (`server`, started here with it set to
 * `idleMs`): each client makes a call, all stay idle until the server says it has expired the
 * sessions of the clients without a stream (`expiredLine(sessionId)`: a line it prints; never a
 * guessed time), then call again. The SDK clients (1.x, 2.x) hold the standalone GET stream
 * open, which keeps the session attached, so the server never expires it; a client without that stream (JSON-RPC
 * POSTs through the engine) has its session expired by the server, and the engine recovers the
 * next call; with the engine's own idle budget below the server's, the session is replaced
 * before the call instead of discovered dead.
 *
 * @example
 * describeIdle(mcpProxy(3_000), 3_000, (id) => new RegExp(`closing session ${id}\\b`));
 */
export function describeIdle(server: RealServer, idleMs: number, expiredLine: (sessionId: string) => RegExp): void {
  describe(`idle expiry: ${server.wiring}`, () => {
    let running: RunningServer | undefined;
    const sdk: TestClient[] = [];
    let discovered: RawEngineClient;
    let proactive: RawEngineClient;
    let idleFrom = 0;
    const outcomes = new Map<unknown, PromiseSettledResult<string>>();
    beforeAll(async () => {
      running = await startServer(server.launch);
      const timeline = createTimeline();
      for (const line of ['1.x', '2.x'] as const) {
        sdk.push(await connectClient({ line, engine: true, url: running.url, timeline }));
        await sdk.at(-1)!.call(server.tool('before'));
      }
      discovered = await connectRawEngineClient(running.url, timeline);
      await discovered.call(server.tool('before'));
      proactive = await connectRawEngineClient(running.url, timeline, { idleBudgetMs: idleMs / 3 });
      await proactive.call(server.tool('before'));
      const everyone = [...sdk, discovered, proactive];
      idleFrom = timeline.tick();
      // Idle until the server has expired both stream-less sessions (the SDK clients' sessions were idle as long).
      for (const client of [discovered, proactive]) await running.untilPrinted(expiredLine(sessionAt(client.wire, idleFrom)!), EXPIRY_HANG_MS);
      for (const client of everyone) outcomes.set(client, (await Promise.allSettled([client.call(server.tool('after-idle'))]))[0]!);
    }, START_CAP_MS + EXPIRY_HANG_MS + 30_000);
    afterAll(async () => {
      await Promise.all(sdk.map((client) => client.close().catch(() => {})));
      await running?.stop();
    });

    it('kept the server running (no crash)', () => {
      expect(running!.exited()).toBeUndefined();
    });

    it.each(['1.x', '2.x'])('%s + engine: its standalone GET stream keeps the session attached, so it never expires', (line) => {
      const client = sdk.find((c) => c.line === line)!;
      expect(outcomes.get(client)).toEqual({ status: 'fulfilled', value: server.answer('after-idle') });
      expect(client.wire.some((w) => w.httpMethod === 'GET' && w.status === 200)).toBe(true);
      expect(initializesAfter(client.wire, idleFrom)).toEqual([]);
      expect(client.events.map((e) => e.event.type)).toEqual(['session-started']);
      // The server's sweeps that expired the stream-less sessions passed this one over.
      expect(running!.printed().filter((line) => expiredLine(sessionAt(client.wire, idleFrom)!).test(line))).toEqual([]);
    });

    it('a client without that stream: the server expires the session, and the engine recovers the next call', () => {
      expect(outcomes.get(discovered), trace(discovered.wire, discovered.events)).toEqual({ status: 'fulfilled', value: server.answer('after-idle') });
      const idleId = sessionAt(discovered.wire, idleFrom);
      const expired = discovered.wire.filter((w) => w.sentAt > idleFrom && w.sessionId === idleId);
      expect(expired.map((w) => [w.rpcMethods, w.status]), trace(discovered.wire, discovered.events)).toEqual([[['tools/call'], 404]]);
      expect(initializesAfter(discovered.wire, idleFrom)).toHaveLength(1);
      const lostAt = discovered.events.filter((e) => e.at > idleFrom && e.event.type === 'session-lost')[0]?.at;
      expect(sentAfter(discovered.wire, idleId!, lostAt!), trace(discovered.wire, discovered.events)).toEqual([]);
      expect(sendsPerCall(discovered.wire, ['after-idle'])).toEqual({ 'after-idle': 2 });
      expect(discovered.events.filter((e) => e.at > idleFrom).map((e) => e.event.type))
        .toEqual(['session-lost', 'session-started', 'session-reinitialized', 'replayed']);
    });

    it('with the engine\'s idle budget below the server\'s, the session is replaced before the call, which is sent once', () => {
      expect(outcomes.get(proactive), trace(proactive.wire, proactive.events)).toEqual({ status: 'fulfilled', value: server.answer('after-idle') });
      // The retired session may get a best-effort DELETE, and nothing else.
      const idleId = sessionAt(proactive.wire, idleFrom);
      const old = proactive.wire.filter((w) => w.sentAt > idleFrom && w.sessionId === idleId);
      expect(old.filter((w) => w.httpMethod !== 'DELETE'), trace(proactive.wire, proactive.events)).toEqual([]);
      expect(initializesAfter(proactive.wire, idleFrom)).toHaveLength(1);
      expect(sendsPerCall(proactive.wire, ['after-idle'])).toEqual({ 'after-idle': 1 });
      expect(proactive.events.filter((e) => e.at > idleFrom).map((e) => e.event))
        .toEqual([expect.objectContaining({ type: 'session-started' }), expect.objectContaining({ type: 'session-reinitialized', reason: 'idle' })]);
    });
  });
}
