import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNTIME_OVERHEAD_SIZES, type RuntimeOverhead } from '@mcp-resilience/scenarios';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeOverheadOutcome } from './runtimes-table.ts';
import { killRunning, readWritten, runNode } from './test-support/run-node.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-runtimes-'));
afterAll(() => (killRunning(), rmSync(dir, { recursive: true, force: true })));

const RUNTIMES = ['node', 'deno', 'workerd', 'browser'];

describe('pnpm bench:runtimes --quick', () => {
  it('measures the overhead in all four runtimes against one mcp-chaos, prints one table and writes the figures', async () => {
    const out = join(dir, 'runtimes.json');
    const ran = await runNode(fileURLToPath(new URL('../dist/runtimes-main.js', import.meta.url)), ['--quick', '--out', out]);
    const { code, stdout, output } = ran;
    expect(code, output).toBe(0);
    const written = readWritten<{ command: string; quick: boolean; table: string; runtimes: RuntimeOverheadOutcome[] }>(out, ran);
    expect(written).toMatchObject({ command: 'pnpm bench:runtimes --quick', quick: true });
    expect(written.runtimes.map((r) => r.runtime)).toEqual(RUNTIMES);

    // Counts, not timings: every runtime answered, each side made exactly the calls asked.
    const { rounds, sequentialCalls } = RUNTIME_OVERHEAD_SIZES.quick;
    for (const outcome of written.runtimes) {
      expect(outcome, `${outcome.runtime} failed`).not.toHaveProperty('failure');
      const overhead = (outcome as { overhead: RuntimeOverhead }).overhead;
      expect(overhead.size).toEqual(RUNTIME_OVERHEAD_SIZES.quick);
      for (const { sequential } of [overhead.sse, overhead.json]) {
        expect([sequential.plain.latency.n, sequential.resilient.latency.n]).toEqual([rounds * sequentialCalls, rounds * sequentialCalls]);
        const withCpu = outcome.runtime === 'node' || outcome.runtime === 'deno';
        expect(typeof sequential.cpuRatio, `${outcome.runtime}: CPU ratio`).toBe(withCpu ? 'number' : 'undefined');
      }
      expect('unavailable' in overhead.cpu).toBe(outcome.runtime === 'workerd' || outcome.runtime === 'browser');
    }

    // The table: two rows (SSE, JSON) per runtime, "—" and why where no CPU clock exists.
    const rows = stdout.split('\n').filter((line) => /^\| (node|deno|workerd|browser) \|/.test(line));
    expect(rows.map((line) => line.split(' | ').slice(0, 2).join(' ').slice(2))).toEqual(RUNTIMES.flatMap((r) => [`${r} SSE`, `${r} JSON`]));
    expect(rows.filter((line) => line.endsWith('| — |')).map((line) => line.split(' | ')[0])).toEqual(['| workerd', '| workerd', '| browser', '| browser']);
    expect(stdout).toContain('CPU "—": workerd: ');
    expect(stdout).toContain(written.table);
  });
});
