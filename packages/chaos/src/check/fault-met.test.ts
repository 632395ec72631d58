import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './catalogue.ts';
import { faultMet, metFault } from './fault-met.ts';
import type { ScenarioEvidence } from './run-scenario.ts';
import { callKey } from './scenario.ts';
import { wireFacts } from './wire-facts.ts';
import type { WireRecord } from './wire-tap.ts';

const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;
const echo = (seq: number, startMs: number, id: string, more: Partial<WireRecord> = {}, session: string | null = 'A'): WireRecord =>
  ({ seq, connection: seq, startMs, endMs: startMs + 5, httpMethod: 'POST', rpcMethod: 'tools/call', call: callKey('echo', { text: id }), ...(session ? { session } : {}), status: 200, answered: true, ...more });
const meeting = (name: string, wire: WireRecord[]) => {
  const evidence: ScenarioEvidence = { scenario: name, wire, ledger: {}, outcomes: [], callTimeoutMs: 15_000 };
  return faultMet(scenario(name), evidence, wireFacts(scenario(name), evidence));
};

describe('metFault', () => {
  it('is a 4xx or 5xx, or a POST whose stream broke; not a GET refused 405, nor any GET on 2026-07-28', () => {
    expect(metFault(echo(1, 0, 'c2', { status: 404 }), '2025-11-25')).toBe(true);
    expect(metFault(echo(1, 0, 'c2', { broken: true }), '2025-11-25')).toBe(true);
    expect(metFault({ seq: 1, connection: 1, startMs: 0, httpMethod: 'GET', status: 405 }, '2025-11-25')).toBe(false);
    expect(metFault({ seq: 1, connection: 1, startMs: 0, httpMethod: 'GET', status: 404 }, '2026-07-28')).toBe(false);
    expect(metFault(echo(1, 0, 'c2'), '2025-11-25')).toBe(false);
  });
});

describe('faultMet', () => {
  it('is met by the request the fault answered, and not when the step never began or nothing met it', () => {
    expect(meeting('gone-amdahl', [echo(1, 0, 'c1'), echo(2, 10, 'c2', { status: 404 })])).toMatchObject({ met: true, by: { seq: 2 } });
    expect(meeting('gone-amdahl', [echo(1, 0, 'c1')])).toEqual({ met: false, why: 'no call of step 2 reached the server, so its fault was never applied' });
    expect(meeting('gone-amdahl', [echo(1, 0, 'c1'), echo(2, 10, 'c2')])).toEqual({ met: false, why: 'no request met the fault of step 2 (none was answered by it)' });
  });

  it('is met by the step beginning alone where the fault is silent when handled right (an idle budget under an open stream, a stateless restart)', () => {
    expect(meeting('stream-keepalive', [echo(1, 0, 'c1'), echo(2, 1600, 'c2')])).toEqual({ met: true });
    expect(meeting('stateless-2026', [echo(1, 0, 'c1', {}, null), echo(2, 10, 'c2', {}, null)])).toEqual({ met: true });
  });
});
