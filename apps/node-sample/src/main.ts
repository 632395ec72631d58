// Runs the conformance scenarios through @mcp-resilience/node with the shared runner against an
// mcp-chaos process, prints the canonical report on stdout and a one-line summary on stderr;
// exits 1 on any mismatch, unmappable file or empty corpus.
// Usage: node dist/main.js [scenarios-dir] [--chaos CONTROL_URL]
//   (default: conformance/scenarios, and an mcp-chaos process of its own, stopped at the end)
import { parseArgs } from 'node:util';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { renderReport, runCorpus, summaryLine } from '@mcp-resilience/scenarios';
import { loadCorpus } from './load-corpus.ts';
import { nodeHost } from './node-host.ts';

const { values, positionals } = parseArgs({ options: { chaos: { type: 'string' } }, allowPositionals: true, strict: true });
const sources = loadCorpus(positionals[0]);
let owned: ChaosProcess | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void (owned?.stop() ?? Promise.resolve()).finally(() => process.exit(1)));
}
try {
  owned = values.chaos === undefined ? await startChaosProcess() : undefined;
  const report = await runCorpus(sources, nodeHost(values.chaos ?? owned!.control));
  process.stdout.write(renderReport(report));
  process.stderr.write(`${summaryLine(report)}\n`);
  if (report.failed > 0 || report.scenarios.length === 0) process.exitCode = 1;
} finally {
  await owned?.stop();
}
