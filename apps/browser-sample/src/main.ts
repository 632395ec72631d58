// Runs the conformance scenarios in real Chromium through @mcp-resilience/browser with the shared
// runner, the page on its own 127.0.0.1 origin and the mcp-chaos pool on others; prints the
// canonical report on stdout and a one-line summary on stderr; exits 1 on any mismatch,
// unmappable file or empty corpus (as node-sample's main does).
// With --overhead, measures instead what the engine costs in the page (the shared measurement:
// plain SDK client vs the same client with @mcp-resilience/browser's fetch, on SSE and on JSON
// answers; performance.now(), no CPU clock) and prints it as JSON; exits 1 when a call failed.
// Usage: node dist/main.js [scenarios-dir | --overhead [--quick]] [--chaos CONTROL_URL]
//   (default: conformance/scenarios, and an mcp-chaos process of its own, stopped at the end;
//   a chaos process started by someone else needs no flag: the page reaches its control API
//   through this process)
import { parseArgs } from 'node:util';
import { parseReport } from '@mcp-resilience/scenarios';
import { sampleMain } from 'node-sample/dist/sample-main.js';
import { measureOverheadInChromium, runInChromium } from './run-in-chromium.ts';

const { values, positionals } = parseArgs({
  options: { chaos: { type: 'string' }, overhead: { type: 'boolean' }, quick: { type: 'boolean' } }, allowPositionals: true, strict: true,
});
await sampleMain({
  runtime: 'browser',
  runCorpus: async (sources, control) => parseReport(await runInChromium(sources, control)),
  measureOverhead: measureOverheadInChromium,
}, { ...values, dir: positionals[0] });
