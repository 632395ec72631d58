// @ts-check
// The sample Worker as it would be deployed, run through the corpus in workerd: built with
// `wrangler deploy --dry-run --outdir` (no account), run by the Miniflare API (code generation
// refused, as on Cloudflare), one scenario per request. Used by scripts/run.mjs and the tests.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeOutput, readyWithin } from '@mcp-resilience/chaos/process';
import { corpusReport, parseCorpus, scenarioReport } from '@mcp-resilience/scenarios';
import { Miniflare } from 'miniflare';

/** @typedef {import('@mcp-resilience/scenarios').CorpusReport} CorpusReport */
/** @typedef {import('@mcp-resilience/scenarios').ScenarioReport} ScenarioReport */
/** @typedef {import('@mcp-resilience/scenarios').ScenarioSource} ScenarioSource */

export const APP = fileURLToPath(new URL('..', import.meta.url));
export const WRANGLER = join(APP, 'node_modules', '.bin', 'wrangler');

/**
 * The environment wrangler runs in here: no metrics, no lookup of Cloudflare's host for
 * `Request.cf`, and its logs and user config under `dir` (not in `~`).
 * @param {string} dir
 * @returns {NodeJS.ProcessEnv}
 */
export function wranglerEnv(dir) {
  return {
    ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_LOG_PATH: join(dir, 'logs'), XDG_CONFIG_HOME: join(dir, 'config'),
  };
}

/** A build takes seconds (about 10 on a loaded machine); this is a hang. */
const BUILD_CAP_MS = 150_000;

/**
 * `wrangler deploy --dry-run --outdir`: the bundle a deploy would upload, built with no account.
 * Throws with wrangler's output when it fails, or when it has not ended within 150 s (hung).
 * @param {string} dir where the bundle, wrangler's logs and config go
 * @returns {{ script: string, upload: string }} the bundle's text, and wrangler's line on its size
 */
export function buildWorker(dir) {
  const built = spawnSync(WRANGLER, ['deploy', '--dry-run', '--outdir', join(dir, 'dist')], {
    cwd: APP, encoding: 'utf8', env: wranglerEnv(dir), timeout: BUILD_CAP_MS, killSignal: 'SIGKILL',
  });
  const hung = built.error?.message.includes('ETIMEDOUT') ? ` (hung: killed after ${BUILD_CAP_MS / 1000} s)` : '';
  if (built.status !== 0) throw new Error(`wrangler deploy --dry-run failed (${built.status ?? built.signal})${hung}:\n${describeOutput(built)}`);
  const upload = /Total Upload: .*/.exec(built.stdout)?.[0] ?? '';
  return { script: readFileSync(join(dir, 'dist', 'worker.js'), 'utf8'), upload };
}

/**
 * The bundle in workerd, with the Durable Object binding and compatibility date of
 * wrangler.jsonc, once Miniflare says workerd is ready (a minute at most: then it fails with the
 * end of what workerd printed). workerd's own output goes to stderr with `verbose`, nowhere
 * otherwise (stdout is the report's). Dispose of it when done.
 * @param {string} script
 * @param {{ verbose?: boolean }} [options]
 * @returns {Promise<Miniflare>}
 */
export async function startWorker(script, { verbose = false } = {}) {
  const printed = { stdout: '', stderr: '' };
  const worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.js', contents: script }], compatibilityDate: '2026-04-20', cf: false,
    durableObjects: { MCP_SESSIONS: { className: 'McpSessionStore', useSQLite: true } },
    /** @param {import('node:stream').Readable} stdout @param {import('node:stream').Readable} stderr */
    handleRuntimeStdio(stdout, stderr) {
      for (const [name, stream] of /** @type {const} */ ([['stdout', stdout], ['stderr', stderr]])) {
        stream.setEncoding('utf8').on('data', (/** @type {string} */ text) => {
          printed[name] = (printed[name] + text).slice(-8_000);
          if (verbose) process.stderr.write(text);
        });
      }
    },
  });
  try {
    await readyWithin(worker.ready);
    return worker;
  } catch (error) {
    await worker.dispose().catch(() => {});
    throw new Error(`workerd (Miniflare) did not start: ${/** @type {Error} */ (error).message}\n${describeOutput(printed)}`, { cause: error });
  }
}

/**
 * The corpus through the Worker as the shared runner takes it (sorted, a file that cannot be
 * mapped counted as failed), each scenario in a request of its own, on fresh servers of the
 * chaos pool at `control`; the canonical report of runtime `workerd`.
 * @param {Miniflare} worker
 * @param {string} control
 * @param {readonly ScenarioSource[]} sources
 * @returns {Promise<CorpusReport>}
 */
export async function runCorpusInWorker(worker, control, sources) {
  const texts = new Map(sources.map((source) => [source.file, source.text ?? JSON.stringify(source.json)]));
  /** @type {ScenarioReport[]} */
  const reports = [];
  for (const entry of parseCorpus(sources)) {
    if (entry.error) {
      reports.push(scenarioReport({ name: entry.file, trace: [], wire: {}, mismatches: [entry.error.message] }));
      continue;
    }
    const query = new URLSearchParams({ chaos: control, file: entry.file });
    const response = await worker.dispatchFetch(`http://sample/scenario?${query}`, { method: 'POST', body: texts.get(entry.file) ?? '' });
    reports.push(response.ok
      ? /** @type {ScenarioReport} */ (await response.json())
      : scenarioReport({ name: entry.scenario.name, trace: [], wire: {}, mismatches: [`the Worker answered ${response.status}: ${(await response.text()).slice(0, 500)}`] }));
  }
  return corpusReport('workerd', reports);
}
