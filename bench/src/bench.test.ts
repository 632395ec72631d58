import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { killRunning, readWritten, runNode } from './test-support/run-node.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-'));
afterAll(() => (killRunning(), rmSync(dir, { recursive: true, force: true })));

const run = (args: readonly string[]) => runNode(fileURLToPath(new URL('../dist/bench-main.js', import.meta.url)), args, ['--no-warnings']);

const REQUIRED = [
  'overhead_median_ratio', 'recovery_requests', 'recovery_requests_proactive', 'storm_initializes',
  'storm_baseline_initializes', 'heap_growth_bytes', 'core_gzip_bytes', 'engine_gzip_bytes',
] as const;

describe('pnpm bench --quick', () => {
  it('runs every benchmark, prints the tables and writes the figures', async () => {
    const out = join(dir, 'latest.json');
    const ran = await run(['--quick', '--out', out]);
    const { code, stdout, output } = ran;
    for (const heading of ['Overhead', 'Recovery', 'Storm', 'Memory', 'Size', 'Goals']) expect(stdout, output).toContain(heading);
    const figures = readWritten<Record<string, unknown>>(out, ran);
    for (const key of REQUIRED) expect(typeof figures[key], key).toBe('number');
    expect(figures.quick).toBe(true);

    // Counts, not timings: these hold on any machine.
    expect(figures.recovery_requests).toBe(4); // the failed call, initialize, notifications/initialized, the replay
    expect(figures.recovery_failed_requests).toBe(1);
    expect(figures.recovery_failed_requests_proactive).toBe(0);
    expect(figures.recovery_initializes_proactive).toBe(1); // the idle session was replaced, not merely lucky
    expect(figures.storm_initializes).toBe(1);
    expect(figures.storm_baseline_initializes).toBe(200); // the workaround: one session per failed call
    expect(figures.storm_failed_calls).toBe(0);
    // A leak grows with the losses (200 here), one or more each; a few either way are timers and
    // streams in passing (the SDK reopening its GET stream, sockets kept alive) when measured.
    expect(figures.memory_losses).toBe(200);
    expect(figures.timers_leaked).toBeLessThan(5);
    expect(figures.listeners_leaked).toBeLessThan(5);
    expect(code, output).toBe(0);
  });
});
