// @ts-check
// Runs the conformance scenarios through the sample Worker in workerd: builds it with
// `wrangler deploy --dry-run`, runs that bundle with Miniflare, one scenario per request, against
// an mcp-chaos process; prints the canonical report on stdout and a one-line summary on stderr
// (`workerd: N scenarios, N passed, N failed`); exits 1 on any mismatch, unmappable file or
// empty corpus, as `node apps/node-sample/dist/main.js` does.
// With --overhead, measures instead what the engine costs in workerd (the Worker's /overhead
// route: the shared measurement in one request, no CPU figures) and prints it as JSON; exits 1
// when a call failed.
// Usage: node apps/cloudflare-sample/scripts/run.mjs [scenarios-dir | --overhead [--quick]] [--chaos CONTROL_URL] [--verbose]
//   (default: conformance/scenarios, and an mcp-chaos process of its own, stopped by PID at the end;
//    --verbose: workerd's own output on stderr)
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startChaosProcess } from '@mcp-resilience/chaos';
import { renderReport, summaryLine } from '@mcp-resilience/scenarios';
import { loadCorpus } from 'node-sample/dist/load-corpus.js';
import { buildWorker, runCorpusInWorker, startWorker } from './workerd-corpus.mjs';

const { values, positionals } = parseArgs({
  options: {
    chaos: { type: 'string' }, verbose: { type: 'boolean', default: false }, overhead: { type: 'boolean' }, quick: { type: 'boolean' },
  },
  allowPositionals: true, strict: true,
});
const sources = values.overhead ? [] : loadCorpus(positionals[0]);
const dir = mkdtempSync(join(tmpdir(), 'cloudflare-sample-'));
/** @type {import('@mcp-resilience/chaos').ChaosProcess | undefined} */
let owned;
/** @type {import('miniflare').Miniflare | undefined} */
let worker;
const cleanUp = async () => {
  await worker?.dispose();
  await owned?.stop();
  rmSync(dir, { recursive: true, force: true });
};
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.once(signal, () => void cleanUp().finally(() => process.exit(1)));

try {
  const { script } = buildWorker(dir);
  owned = values.chaos === undefined ? await startChaosProcess() : undefined;
  worker = startWorker(script, { verbose: values.verbose });
  const control = values.chaos ?? /** @type {NonNullable<typeof owned>} */ (owned).control;
  if (values.overhead) {
    const { version } = createRequire(import.meta.url)('miniflare/package.json');
    const query = new URLSearchParams({ chaos: control, size: values.quick ? 'quick' : 'full', version: `workerd of Miniflare ${version}` });
    const response = await worker.dispatchFetch(`http://sample/overhead?${query}`, { method: 'POST' });
    const text = await response.text();
    if (!response.ok) throw new Error(`the Worker answered ${response.status}: ${text.slice(0, 500)}`);
    process.stdout.write(`${text}\n`);
  } else {
    const report = await runCorpusInWorker(worker, control, sources);
    process.stdout.write(renderReport(report));
    process.stderr.write(`${summaryLine(report)}\n`);
    if (report.failed > 0 || report.scenarios.length === 0) process.exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`workerd: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
