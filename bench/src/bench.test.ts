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
    for (const heading of ['Overhead', 'Overhead by Node line', 'Recovery', 'Storm', 'Memory', 'Size', 'Goals']) expect(stdout, output).toContain(heading);
    const figures = readWritten<Record<string, unknown>>(out, ran);
    for (const key of REQUIRED) expect(typeof figures[key], key).toBe('number');
    expect(figures.quick).toBe(true);

    // The overhead on Node 20 (this process's), 24 and 26, each line in a child process of its own
    // binary against one chaos server, with SSE and with JSON answers: figures for each, from the
    // Node it names (never their values), and a row per line with both formats in the report.
    const byFormat = figures.overhead_node_lines as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(byFormat)).toEqual(['sse', 'json']);
    for (const [format, lines] of Object.entries(byFormat)) {
      expect(Object.keys(lines), format).toEqual([`node${process.versions.node.split('.')[0]}`, 'node24', 'node26']);
      expect(Object.values(lines).map((l) => l.node), format).toEqual([process.version, 'v24.22.3', 'v26.12.1']);
      for (const [line, l] of Object.entries(lines)) {
        expect(l.failure, `${format}.${line}`).toBeUndefined();
        for (const key of ['median_ratio', 'p99_ratio', 'cpu_ratio', 'plain_cpu_us', 'resilient_cpu_us', 'added_cpu_us', 'concurrent_median_ratio', 'concurrent_cpu_ratio']) {
          expect(typeof l[key], `${format}.${line}.${key}`).toBe('number');
        }
        expect(l.added_cpu_us).toBe((l.resilient_cpu_us as number) - (l.plain_cpu_us as number));
      }
    }
    for (const [line, l] of Object.entries(byFormat.sse!)) {
      expect(stdout).toMatch(new RegExp(`^${line} \\(${String(l.node).replaceAll('.', '\\.')}\\)  (\\S+ / \\S+ +\\S+ +\\d+ → \\d+ µs \\([+-]\\d+\\) *){2}$`, 'm'));
    }
    type Measured = { format: string; lines: { line: string; result: { sequential: { plain: { latency: { n: number } } } } }[] };
    const details = figures.details as { overheadNodeLines: Record<string, Measured> };
    expect(Object.values(details.overheadNodeLines).map((m) => m.format)).toEqual(['sse', 'json']);
    for (const measured of Object.values(details.overheadNodeLines)) {
      expect(measured.lines.map((l) => l.result.sequential.plain.latency.n)).toEqual([160, 160, 160]); // 4 rounds × 40 calls, on every line
    }
    expect(stdout).toMatch(/overhead measured on every Node line .* met$/m);

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
