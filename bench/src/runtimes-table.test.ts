import type { OverheadResult, RuntimeOverhead } from '@mcp-resilience/scenarios';
import { describe, expect, it } from 'vitest';
import { OverheadOutputError, parseRuntimeOverhead, renderRuntimesTable } from './runtimes-table.ts';

const side = (medianMs: number, cpuMicrosPerCall?: number) => ({
  latency: { n: 100, medianMs, p99Ms: medianMs * 3 }, blockMsPerCall: medianMs * 1.1, ...(cpuMicrosPerCall === undefined ? {} : { cpuMicrosPerCall }),
});
const result = (cpu: boolean): OverheadResult => ({
  sequential: { plain: side(2, cpu ? 1000 : undefined), resilient: side(2.2, cpu ? 1100 : undefined), medianRatio: 1.1, p99Ratio: 1.1, blockRatio: 1.1, ...(cpu ? { cpuRatio: 1.1 } : {}), spread: {} },
});
const SIZE = { warmupCalls: 1, rounds: 4, sequentialCalls: 25, concurrentCallsPerWorker: 0 };
const node: RuntimeOverhead = { runtime: 'node', version: 'Node v20', clock: 'performance.now()', size: SIZE, cpu: { source: 'process.cpuUsage()' }, sse: result(true), json: result(true) };
const workerd: RuntimeOverhead = { ...node, runtime: 'workerd', version: 'workerd', clock: 'whole ms', cpu: { unavailable: 'no CPU clock' }, sse: result(false), json: result(false) };

describe('parseRuntimeOverhead', () => {
  it('takes what a sample printed for the runtime asked for', () => {
    expect(parseRuntimeOverhead(JSON.stringify(node), 'node')).toEqual(node);
  });

  it('refuses anything else, saying what', () => {
    const refused = (text: string, runtime: 'node' | 'deno') => {
      try {
        parseRuntimeOverhead(text, runtime);
      } catch (error) {
        expect(error).toBeInstanceOf(OverheadOutputError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused('node: 27 scenarios', 'node')).toMatch(/^node: not JSON/);
    expect(refused(JSON.stringify(node), 'deno')).toBe('deno: the figures are of runtime "node"');
    expect(refused(JSON.stringify({ ...node, json: {} }), 'node')).toBe('node.json.sequential.medianRatio is not a number');
  });
});

describe('renderRuntimesTable', () => {
  it('has a row per runtime and answer format, "—" and why where there is no CPU clock, and a row for a runtime that failed', () => {
    const table = renderRuntimesTable([{ runtime: 'node', overhead: node }, { runtime: 'workerd', overhead: workerd }, { runtime: 'browser', failure: 'exit 1: a | b' }]);
    expect(table.split('\n').slice(2, 7)).toEqual([
      '| node | SSE | 100 | 2.00 / 2.20 | **1.100** | 1.100 | 1.100 | 1.100 |',
      '| node | JSON | 100 | 2.00 / 2.20 | **1.100** | 1.100 | 1.100 | 1.100 |',
      '| workerd | SSE | 100 | 2.00 / 2.20 | **1.100** | 1.100 | 1.100 | — |',
      '| workerd | JSON | 100 | 2.00 / 2.20 | **1.100** | 1.100 | 1.100 | — |',
      '| browser | failed: exit 1: a \\| b | | | | | | |',
    ]);
    expect(table).toContain('CPU "—": workerd: no CPU clock.\nClocks: node: performance.now(); workerd: whole ms.\nVersions: node: Node v20; workerd: workerd.\n');
  });
});
