import { describe, expect, it } from 'vitest';
import { chaosPool } from './chaos-control.ts';
import { isScenarioError } from './errors.ts';
import { chaosProcessForTests } from './test-support/host.ts';

const chaos = chaosProcessForTests();
const listed = async () => ((await (await fetch(`${chaos().control}/servers`)).json()) as { servers: unknown[] }).servers;

describe('chaosPool: fresh chaos servers from an mcp-chaos process, over HTTP', () => {
  it('starts a server with the scenario\'s options, takes faults, reads state, and stops it', async () => {
    const server = await chaosPool(chaos().control).start({ dialect: 'amdahl', faults: [{ kind: 'capacity', max: 2 }] });
    expect(new URL(server.url).port).not.toBe(new URL(chaos().url).port);
    await server.applyFaults([{ kind: 'idle-budget', ms: 900 }]);
    const state = await server.state();
    expect(state).toMatchObject({ sessions: [], ledger: {}, log: [], faults: { dialect: 'amdahl', capacity: 2, idleBudgetMs: 900 } });
    expect(await listed()).toHaveLength(1);
    await server.stop();
    await server.stop(); // twice is once
    expect(await listed()).toEqual([]);
    await expect(fetch(server.url, { method: 'OPTIONS' })).rejects.toThrow();
  });

  it('a refused request or an unreachable pool is a CHAOS_CONTROL_FAILED error that says why', async () => {
    const server = await chaosPool(chaos().control).start({});
    try {
      const refused = await server.applyFaults([{ kind: 'melt' } as never]).catch((error: unknown) => error);
      expect(isScenarioError(refused, 'CHAOS_CONTROL_FAILED')).toBe(true);
      expect((refused as Error).message).toMatch(/POST .*\/faults: 400 .*unknown fault kind "melt"/);
    } finally {
      await server.stop();
    }
    const unreachable = await chaosPool('http://127.0.0.1:9/_chaos').start({}).catch((error: unknown) => error);
    expect(isScenarioError(unreachable, 'CHAOS_CONTROL_FAILED')).toBe(true);
    expect((unreachable as Error).message).toMatch(/unreachable/);
  });

  it('uses the fetch it is given', async () => {
    const seen: string[] = [];
    const counted: typeof fetch = (input, init) => (seen.push(`${init?.method} ${String(input).replace(/^http:\/\/[^/]+/, '')}`), fetch(input, init));
    const server = await chaosPool(`${chaos().control}/`, { fetch: counted }).start({});
    await server.stop();
    expect(seen).toEqual(['POST /_chaos/servers', 'DELETE /_chaos']);
  });
});
