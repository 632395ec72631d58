// Node side: a Worker bundled as wrangler bundles one (esbuild, the workerd conditions), run by
// Miniflare in workerd, where code generation from strings is refused as it is on Cloudflare.
import type { Readable } from 'node:stream';
import { describeOutput, readyWithin } from '@mcp-resilience/chaos/process';
import { build } from 'esbuild';
import { Miniflare, type MiniflareOptions } from 'miniflare';

/** The Worker at `entry`, bundled into one ES module; `alias` as `"alias"` in wrangler.jsonc. */
export async function bundleWorker(entry: string, alias: Record<string, string> = {}): Promise<string> {
  const result = await build({
    entryPoints: [entry], bundle: true, write: false, format: 'esm', platform: 'neutral', target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'], external: ['cloudflare:*'],
    alias, logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * Runs a bundled Worker in workerd (no account, no lookup of Cloudflare's host), once Miniflare
 * says workerd is ready: a minute at most (`START_CAP_MS`), then it fails with the end of what
 * workerd printed. `dispose()` stops it.
 *
 * @example
 * const worker = await runWorker(await bundleWorker(entry));
 * await worker.dispatchFetch('http://worker/');
 * await worker.dispose();
 */
export async function runWorker(script: string, options: Partial<MiniflareOptions> = {}): Promise<Miniflare> {
  const printed = { stdout: '', stderr: '' };
  const worker = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.js', contents: script }], compatibilityDate: '2026-04-20', cf: false,
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      for (const [name, stream] of [['stdout', stdout], ['stderr', stderr]] as const) {
        stream.setEncoding('utf8').on('data', (text: string) => (printed[name] = (printed[name] + text).slice(-8_000)));
      }
    },
    ...options,
  } as MiniflareOptions);
  try {
    await readyWithin(worker.ready);
    return worker;
  } catch (error) {
    await worker.dispose().catch(() => {});
    throw new Error(`workerd (Miniflare) did not start: ${(error as Error).message}\n${describeOutput(printed)}`, { cause: error });
  }
}
