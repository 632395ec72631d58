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
import { sampleMain } from 'node-sample/dist/sample-main.js';
import { buildWorker, runCorpusInWorker, startWorker } from './workerd-corpus.mjs';

const { values, positionals } = parseArgs({
  options: {
    chaos: { type: 'string' }, verbose: { type: 'boolean', default: false }, overhead: { type: 'boolean' }, quick: { type: 'boolean' },
  },
  allowPositionals: true, strict: true,
});
const dir = mkdtempSync(join(tmpdir(), 'cloudflare-sample-'));
/** @type {Promise<import('miniflare').Miniflare> | undefined} */
let worker;
/** The sample Worker, built with wrangler and run with Miniflare: once, at its first use. */
const started = () => (worker ??= startWorker(buildWorker(dir).script, { verbose: values.verbose }));

await sampleMain({
  runtime: 'workerd',
  runCorpus: async (sources, control) => runCorpusInWorker(await started(), control, sources),
  measureOverhead: async (control, size) => {
    const { version } = createRequire(import.meta.url)('miniflare/package.json');
    const query = new URLSearchParams({ chaos: control, size, version: `workerd of Miniflare ${version}` });
    const response = await (await started()).dispatchFetch(`http://sample/overhead?${query}`, { method: 'POST' });
    const text = await response.text();
    if (!response.ok) throw new Error(`the Worker answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  },
  cleanUp: async () => {
    await worker?.then((started) => started.dispose(), () => {}); // one that did not start was disposed of
    rmSync(dir, { recursive: true, force: true });
  },
}, { ...values, dir: positionals[0] });
