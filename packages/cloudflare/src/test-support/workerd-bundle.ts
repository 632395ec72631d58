// Node side: a Worker bundled as wrangler bundles one (esbuild, the workerd conditions), run by
// Miniflare in workerd, where code generation from strings is refused as it is on Cloudflare.
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

/** Runs a bundled Worker in workerd (no account, no lookup of Cloudflare's host); `dispose()` stops it. */
export function runWorker(script: string, options: Partial<MiniflareOptions> = {}): Miniflare {
  return new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.js', contents: script }], compatibilityDate: '2026-04-20', cf: false,
    ...options,
  } as MiniflareOptions);
}
