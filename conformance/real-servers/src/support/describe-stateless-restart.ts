import { START_CAP_MS } from '@mcp-resilience/chaos/process';
import { beforeAll, describe, expect, it } from 'vitest';
import { trace } from './invariants.ts';
import { RESTART_CLIENTS, runThroughRestart, type ClientThroughRestart, type RestartClient } from './restart-run.ts';
import type { TestClient } from './sdk-clients.ts';
import type { RunningServer } from './server-process.ts';
import type { RealServer } from './servers.ts';

/** Events of the engine's session logic: none may appear where there is no session. */
const SESSION_LOGIC = new Set(['session-lost', 'session-reinitialized', 'session-changed', 'state-restored', 'replayed']);

const labelOf = (c: RestartClient) => `${c.line} ${c.engine ? '+ engine' : 'plain'}${c.pin ? ` on ${c.pin}` : ''}`;

/**
 * The scenario of a server without sessions (stateless 2025-era, or 2026-07-28): the same real
 * restart under the same clients. There is nothing to lose, so every call is answered with and
 * without the engine, no session id is ever sent, nothing is initialized again, and the engine
 * runs none of its session logic.
 *
 * @example
 * describeStatelessRestart(SDK1_STATELESS, () => running, opened);
 */
export function describeStatelessRestart(server: RealServer, running: () => RunningServer, opened: TestClient[],
  clients: readonly RestartClient[] = RESTART_CLIENTS): void {
  describe('a real restart with no session to lose', () => {
    let runs: ClientThroughRestart[];
    beforeAll(async () => {
      runs = await runThroughRestart(server, running(), clients, opened);
    }, START_CAP_MS + 60_000); // a restart may take the start's cap before it "did not start"

    it.each(clients.map(labelOf))('%s: every call answered, no session id sent, nothing initialized again, no session logic', (label) => {
      const r = runs[clients.map(labelOf).indexOf(label)]!;
      for (const { text, outcome } of r.after) expect(outcome).toEqual({ status: 'fulfilled', value: server.answer(text) });
      expect(r.client.wire.filter((w) => w.sessionId !== null)).toEqual([]);
      expect(r.client.wire.filter((w) => w.sentAt > r.restartedAt && w.rpcMethods.includes('initialize'))).toEqual([]);
      // A 2025-era connection starts with an initialize, which the engine reports as session 1 (with no id);
      // a 2026-07-28 one has no initialize and no session at all. Nothing else of the session logic runs
      // (a standalone GET refused while the server restarts may be backed off: that is no session logic).
      const initialized = r.client.engine && r.client.wire.some((w) => w.rpcMethods.includes('initialize'));
      const types = r.client.events.map((e) => e.event.type);
      expect(types.filter((t) => t === 'session-started'), trace(r.client.wire, r.client.events)).toEqual(initialized ? ['session-started'] : []);
      expect(types.filter((t) => SESSION_LOGIC.has(t)), trace(r.client.wire, r.client.events)).toEqual([]);
    });
  });
}
