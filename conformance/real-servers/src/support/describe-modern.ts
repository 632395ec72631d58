import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimeline } from './counting-fetch.ts';
import { describeStatelessRestart } from './describe-stateless-restart.ts';
import { connectClient, type TestClient } from './sdk-clients.ts';
import type { RunningServer } from './server-process.ts';
import type { RealServer } from './servers.ts';

const MODERN = '2026-07-28';

/**
 * The scenarios of a 2026-07-28 server with the 2.x client pinned to that revision: a real
 * restart changes nothing (no session, no `initialize`, no session logic in the engine), and a
 * 404 is an unknown method, never a lost session: it reaches the caller once and nothing is
 * re-initialized. The 1.x client, which speaks 2025-11-25, goes through the same restart.
 *
 * @example
 * describeModern(SDK2_MODERN, () => running, opened);
 */
export function describeModern(server: RealServer, running: () => RunningServer, opened: TestClient[]): void {
  describeStatelessRestart(server, running, opened, [
    { line: '2.x', engine: true, pin: MODERN },
    { line: '2.x', engine: false, pin: MODERN },
    { line: '1.x', engine: true },
    { line: '1.x', engine: false },
  ]);

  describe(`${MODERN}: a 404 is an unknown method, never a lost session`, () => {
    let client: TestClient;
    let outcome: PromiseSettledResult<unknown>;
    beforeAll(async () => {
      client = await connectClient({ line: '2.x', engine: true, pin: MODERN, url: running().url, timeline: createTimeline() });
      opened.push(client);
      outcome = (await Promise.allSettled([client.request('no/such-method')]))[0]!;
    });
    afterAll(() => client?.close());

    it('reaches the caller as the server\'s -32601, sent once', () => {
      expect(outcome.status).toBe('rejected');
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/-32601|method not found/i);
      expect(client.wire.filter((w) => w.rpcMethods.includes('no/such-method')).map((w) => w.status)).toEqual([404]);
    });

    it('runs no session logic: no initialize, no session id, no session events', () => {
      expect(client.wire.filter((w) => w.rpcMethods.includes('initialize') || w.sessionId !== null)).toEqual([]);
      expect(client.events.map((e) => e.event.type)).toEqual([]);
    });

    it('leaves the connection working', async () => {
      await expect(client.call(server.tool('next'))).resolves.toBe(server.answer('next'));
    });
  });
}
