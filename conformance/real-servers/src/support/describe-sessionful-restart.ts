import { START_CAP_MS } from '@mcp-resilience/chaos/process';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptedWire, fixtureRow } from './fixture.ts';
import { declaredLostAt, firstFailedAt, initializesAfter, sendsPerCall, sentAfter, trace } from './invariants.ts';
import { CONCURRENT_CALLS, RESTART_CLIENTS, runThroughRestart, type ClientThroughRestart } from './restart-run.ts';
import type { TestClient } from './sdk-clients.ts';
import type { RunningServer } from './server-process.ts';
import type { RealServer } from './servers.ts';

const ENGINE = ['1.x + engine', '2.x + engine'] as const;
const PLAIN = ['1.x plain', '2.x plain'] as const;

/**
 * The scenarios of a sessionful server: every client of {@link RESTART_CLIENTS} through a real
 * restart (the engine's {@link CONCURRENT_CALLS} concurrent calls meet the one dead session),
 * then the DELETE at close. Asserted from the counting fetch under the engine and from the
 * server: every call answered, one `initialize` per loss, the dead id never sent after the
 * first failed request carrying it, at most one replay per call; and what the plain clients
 * did through the same restart.
 *
 * @example
 * describeSessionfulRestart(SERVER_EVERYTHING, () => running, opened);
 */
export function describeSessionfulRestart(server: RealServer, running: () => RunningServer, opened: TestClient[]): void {
  describe('a real restart under live clients, 20 concurrent calls, DELETE at close', () => {
    const lost = fixtureRow(server.id)?.afterRestart;
    let runs: ClientThroughRestart[];
    beforeAll(async () => {
      runs = await runThroughRestart(server, running(), RESTART_CLIENTS, opened);
    }, START_CAP_MS + 90_000); // up to eight restarts: each may take the start's cap before it "did not start"
    const run = (label: string) => runs.find((r) => r.client.label === label)!;
    const traceOf = (r: ClientThroughRestart) => trace(r.client.wire, r.client.events);
    const afterRestart = (r: ClientThroughRestart) => r.client.wire.filter((w) => w.sentAt > r.restartedAt);

    describe.each(ENGINE)('%s', (label) => {
      it(`answers all ${CONCURRENT_CALLS} calls made at once after the restart`, () => {
        const { after } = run(label);
        expect(after).toHaveLength(CONCURRENT_CALLS);
        for (const { text, outcome } of after) expect(outcome).toEqual({ status: 'fulfilled', value: server.answer(text) });
      });

      it('sends exactly one initialize for the loss, and gets a new session', () => {
        const r = run(label);
        expect(initializesAfter(r.client.wire, 0), traceOf(r)).toHaveLength(2);
        expect(initializesAfter(r.client.wire, r.restartedAt), traceOf(r)).toHaveLength(1);
        expect(initializesAfter(r.client.wire, r.restartedAt)[0]!.sessionId).toBeNull();
        expect(r.liveId).toBeDefined();
        expect(r.liveId).not.toBe(r.deadId);
      });

      it('never sends the dead id once it has declared the session lost', () => {
        const r = run(label);
        const failedAt = firstFailedAt(r.client.wire, r.deadId!);
        const lostAt = declaredLostAt(r.client.events);
        expect(failedAt, traceOf(r)).toBeDefined();
        expect(lostAt, traceOf(r)).toBeGreaterThan(failedAt!);
        expect(sentAfter(r.client.wire, r.deadId!, lostAt!), traceOf(r)).toEqual([]);
        // Requests already on the wire when the first refusal arrived carry the id, and so may one
        // sent in the microtasks before the engine starts reading that refusal; from then on it
        // holds new requests of the session until the refusal is classified (see docs/servers.md).
        // Each is replayed once.
      });

      it('sends each call at most twice: the call and one replay', () => {
        const r = run(label);
        const sends = Object.values(sendsPerCall(r.client.wire, r.after.map((a) => a.text)));
        expect(sends.every((n) => n >= 1 && n <= 2), traceOf(r)).toBe(true);
        const replayed = r.client.events.filter((e) => e.event.type === 'replayed' && e.event.stream === undefined);
        expect(replayed.length, traceOf(r)).toBe(sends.filter((n) => n === 2).length);
      });

      it('names the dialect the server spoke', () => {
        const losses = run(label).client.events.filter((e) => e.event.type === 'session-lost').map((e) => e.event);
        expect(losses, traceOf(run(label))).toEqual([expect.objectContaining({ type: 'session-lost', dialect: lost!.POST.verdict.dialect })]);
      });

      it('sends DELETE at close with the live session id (never the dead one), answered 200', () => {
        const r = run(label);
        expect(r.terminated.status).toBe('fulfilled');
        const deletes = r.client.wire.filter((w) => w.httpMethod === 'DELETE');
        expect(deletes.map((d) => [d.sessionId, d.status]), traceOf(r)).toEqual([[r.liveId, 200]]);
      });

      it('leaves the server answering that session as the fixture row records', () => {
        const row = fixtureRow(server.id)?.afterDelete;
        expect(row, `no afterDelete in the fixture row; measured: ${JSON.stringify(run(label).afterDelete)}`).toBeDefined();
        expect(acceptedWire(row!.POST)).toContainEqual(run(label).afterDelete!.POST);
        expect(acceptedWire(row!.GET)).toContainEqual(run(label).afterDelete!.GET);
      });
    });

    describe.each(PLAIN)('%s (no engine, the same restart)', (label) => {
      it('fails every call after the restart with the server\'s own answer', () => {
        const { after } = run(label);
        expect(after).toHaveLength(2);
        for (const { outcome } of after) {
          expect(outcome.status).toBe('rejected');
          expect(String((outcome as PromiseRejectedResult).reason)).toContain(lost!.POST.body!);
        }
      });

      it('keeps sending the dead id and never opens a new session', () => {
        const r = run(label);
        const calls = afterRestart(r).filter((w) => w.rpcMethods.includes('tools/call'));
        expect(calls.map((w) => [w.sessionId, w.status]), traceOf(r)).toEqual([[r.deadId, lost!.POST.status], [r.deadId, lost!.POST.status]]);
        expect(initializesAfter(r.client.wire, r.restartedAt)).toEqual([]);
      });
    });
  });
}
