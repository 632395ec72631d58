// Runs the conformance scenarios through @mcp-resilience/node with the shared runner against an
// mcp-chaos process, prints the canonical report on stdout and a one-line summary on stderr;
// exits 1 on any mismatch, unmappable file or empty corpus.
// With --overhead, measures instead what the engine costs in Node (the shared measurement:
// plain SDK client vs the same client with createResilientFetch(), on SSE and on JSON answers,
// CPU from process.cpuUsage()) and prints it as JSON; exits 1 when a call failed.
// Usage: node dist/main.js [scenarios-dir] [--chaos CONTROL_URL] [--overhead [--quick]]
//   (default: conformance/scenarios, and an mcp-chaos process of its own, stopped at the end)
import { parseArgs } from 'node:util';
import { measureRuntimeOverhead, runCorpus, RUNTIME_OVERHEAD_SIZES } from '@mcp-resilience/scenarios';
import { NODE_CPU, nodeHost } from './node-host.ts';
import { sampleMain } from './sample-main.ts';

const { values, positionals } = parseArgs({
  options: { chaos: { type: 'string' }, overhead: { type: 'boolean' }, quick: { type: 'boolean' } }, allowPositionals: true, strict: true,
});
await sampleMain({
  runtime: 'node',
  runCorpus: (sources, control) => runCorpus(sources, nodeHost(control)),
  measureOverhead: (control, size) =>
    measureRuntimeOverhead(nodeHost(control), RUNTIME_OVERHEAD_SIZES[size], { cpu: NODE_CPU, version: `Node ${process.version}` }),
}, { ...values, dir: positionals[0] });
