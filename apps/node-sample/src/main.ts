// Runs the conformance scenarios through @mcp-resilience/node with the shared runner against an
// mcp-chaos process, prints the canonical report on stdout and a one-line summary on stderr;
// exits 1 on any mismatch, unmappable file or empty corpus.
// With --overhead, measures instead what the engine costs in Node (the shared measurement:
// plain SDK client vs the same client with createResilientFetch(), on SSE and on JSON answers,
// CPU from process.cpuUsage()) and prints it as JSON; exits 1 when a call failed.
// Usage: node dist/main.js [scenarios-dir] [--chaos CONTROL_URL] [--overhead [--quick]]
//   (default: conformance/scenarios, and an mcp-chaos process of its own, stopped at the end)
import { parseArgs } from 'node:util';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { measureRuntimeOverhead, renderReport, runCorpus, RUNTIME_OVERHEAD_SIZES, summaryLine, type CpuClock } from '@mcp-resilience/scenarios';
import { loadCorpus } from './load-corpus.ts';
import { nodeHost } from './node-host.ts';

const { values, positionals } = parseArgs({
  options: { chaos: { type: 'string' }, overhead: { type: 'boolean' }, quick: { type: 'boolean' } }, allowPositionals: true, strict: true,
});
const NODE_CPU: CpuClock = {
  source: 'process.cpuUsage() of the Node process',
  readMicros: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
};
let owned: ChaosProcess | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void (owned?.stop() ?? Promise.resolve()).finally(() => process.exit(1)));
}
try {
  owned = values.chaos === undefined ? await startChaosProcess() : undefined;
  const host = nodeHost(values.chaos ?? owned!.control);
  if (values.overhead) {
    const size = RUNTIME_OVERHEAD_SIZES[values.quick ? 'quick' : 'full'];
    process.stdout.write(`${JSON.stringify(await measureRuntimeOverhead(host, size, { cpu: NODE_CPU, version: `Node ${process.version}` }))}\n`);
  } else {
    const report = await runCorpus(loadCorpus(positionals[0]), host);
    process.stdout.write(renderReport(report));
    process.stderr.write(`${summaryLine(report)}\n`);
    if (report.failed > 0 || report.scenarios.length === 0) process.exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`node: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await owned?.stop();
}
