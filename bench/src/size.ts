import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';

/**
 * The size goals of issue #5, in bytes of minified and gzipped (level 9) code; `engineWithCore`,
 * what an application ships (issue 38's headline), is held to the sum of the two.
 */
export const SIZE_GOAL = { core: 4 * 1024, engine: 10 * 1024, engineWithCore: 14 * 1024 } as const;

/**
 * The budgets CI enforces (bytes, min+gzip), so that nothing grows unnoticed. Both miss their
 * goals (docs/performance.md says why): core (6.6 KB once it gained the loss report, the
 * unrecognised-answer rule, the CORS diagnosis and the blocked verdict; 7.4 KB with the task
 * decisions of issue #16; 7.74 KB with issue #20's restart wait and error codes, 7.51 KB once it
 * exported only what is used outside it, 7.40 KB after a size pass (7,573 B), 7,516 B after issue 38's) is held to 8 KB, the engine (10.4 KB once issue #9 gave it ports, the
 * session hook, replay consent, close, the loss report and unrecognised answers; 12.3 KB with
 * the task tracker and `callLongTool`; 13.8 KB once issue #20 kept each client's sessions apart,
 * one lineage per client, and made it a fetch: `Request` input, response `url`, pass-through;
 * about 14.6 KB with the restart wait; 14.7 KB after the rebuild into one loop over one wire, whose
 * new modules and typed errors cost about 0.4 KB; 15.1 KB with the SDK 2.x middleware, the
 * stored-session resume and the policy/ports split; 14.6 KB after a size pass; 15.6 KB with issue
 * 36's exact requests; 16.6 KB once stores held no secret and one identity, with deadlines, and a
 * resumed client was whole: +1,026 B; 17.0 KB (17,447 B) with first contact failing fast, state with one
 * owner, the renewal's first request going alone and cancels named per client; then issue
 * 38's healthy path, which bought its speed: +412 B for a JSON answer handed on with no stream of its
 * own (every way of reading a response answered from its text) and a signal per call, which took
 * about 50 µs of CPU and 0.09 of the median ratio off each JSON call, alternated A/B; +118 B for
 * the client number in events and log lines; +101 B for one listener per caller's signal, held while
 * a response stream is read: 18,078 B; +53 B for taking that listener off once no call follows the signal, and for
 * giving up a call whose body was cancelled: 18,131 B) to 18 KB. Issue 38's goal of 15.5 KB is not met. `engineWithCore` is the headline: the
 * engine with the core it uses, what every application ships (23,123 B when issue 38 set its budget
 * to 23.5 KB; 23,770 B with the above and core's size pass).
 */
export const SIZE_BUDGET = { core: 8 * 1024, engine: 18 * 1024, engineWithCore: 23.5 * 1024 } as const;

/** The runtime adapters, by their package's last name. */
export const ADAPTERS = ['node', 'deno', 'cloudflare', 'browser'] as const;
export type Adapter = (typeof ADAPTERS)[number];

/**
 * Each adapter's own code (bytes, min+gzip; the engine, core, the SDK and the runtime's modules
 * left external), held a little above its size when the budgets were set (docs/performance.md):
 * an adapter is ports and runtime niceties, and one that grows logic is a sign the logic belongs
 * in core or the engine. Cloudflare's was raised from 1.5 to 2.25 KB for `durableClient` and the
 * binding checks of issue #13 (2,054 bytes; docs/performance.md). Node's was raised from 512 to
 * 576 bytes when issue #20 gave every adapter its runtime as one exported object (`nodeRuntime`)
 * and the SDK 2.x middleware form (`resilienceMiddleware`): 532 bytes, all of it exports. Deno's
 * was raised from 1,024 to 1,152 bytes when issue 36 had `KvSessionStore` drop the sessions older
 * versions kept under a URL (which may carry a token): 1,089 bytes.
 */
export const ADAPTER_BUDGET: Readonly<Record<Adapter, number>> = { node: 576, deno: 1152, cloudflare: 2304, browser: 1536 };

export interface BundleSize {
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
}

export interface SizeReport {
  /** All of `@mcp-resilience/core`'s public API in one bundle. */
  readonly core: BundleSize;
  /** `@mcp-resilience/client` without core and without the SDK (both left external). */
  readonly engine: BundleSize;
  /** What an application ships: the engine with the part of core it uses. */
  readonly engineWithCore: BundleSize;
  /** Each adapter alone, and with the engine and core (what an application on that runtime ships of ours). */
  readonly adapters: Readonly<Record<Adapter, { readonly alone: BundleSize; readonly withEngineAndCore: BundleSize }>>;
}

/**
 * Bundles one entry with rolldown (minified, ESM) and gzips it at level 9.
 *
 * @example
 * const { gzipBytes } = await bundleSize(entryOf('@mcp-resilience/core'), []);
 */
export async function bundleSize(entry: string, external: readonly (string | RegExp)[]): Promise<BundleSize> {
  const bundle = await rolldown({ input: entry, external: [...external], logLevel: 'silent' });
  try {
    const { output } = await bundle.generate({ format: 'esm', minify: true });
    const code = output.map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('');
    return { minifiedBytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
  } finally {
    await bundle.close();
  }
}

/** The built entry file of a workspace package. */
function entryOf(specifier: string): string {
  return fileURLToPath(import.meta.resolve(specifier));
}

const SDK = /^@modelcontextprotocol\//;
/** What is not ours in an adapter: the SDK, Workers' validator, and the runtime's own modules. */
const NOT_OURS = [SDK, /^@cfworker\//, /^(node|cloudflare):/];

/**
 * Measures core, the engine alone, the engine with core, and each adapter alone and with the
 * engine and core, from the packages' built `dist`.
 *
 * @example
 * const sizes = await measureSizes();
 * sizes.core.gzipBytes <= SIZE_BUDGET.core;
 * sizes.adapters.node.alone.gzipBytes <= ADAPTER_BUDGET.node;
 */
export async function measureSizes(): Promise<SizeReport> {
  const core = entryOf('@mcp-resilience/core');
  const client = entryOf('@mcp-resilience/client');
  const adapters = {} as Record<Adapter, SizeReport['adapters'][Adapter]>;
  for (const adapter of ADAPTERS) {
    const entry = entryOf(`@mcp-resilience/${adapter}`);
    adapters[adapter] = {
      alone: await bundleSize(entry, [...NOT_OURS, /^@mcp-resilience\//]),
      withEngineAndCore: await bundleSize(entry, NOT_OURS),
    };
  }
  return {
    core: await bundleSize(core, []),
    engine: await bundleSize(client, [SDK, /^@mcp-resilience\/core$/]),
    engineWithCore: await bundleSize(client, [SDK]),
    adapters,
  };
}
