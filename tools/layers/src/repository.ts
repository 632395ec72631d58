import { fileURLToPath } from 'node:url';

/** The repository's root: every path this package reports is relative to it, with `/` between folders. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Where the project's own code lives: every workspace package's sources, the samples, the
 * conformance suites (all of them), the benchmarks, the proof and the tools. Folders, relative
 * to {@link REPOSITORY_ROOT}; a `*` stands for each folder there.
 *
 * @example
 * SOURCE_FOLDERS.includes('packages/*\/src') // true
 */
export const SOURCE_FOLDERS: readonly string[] = ['packages/*/src', 'apps/*/src', 'conformance', 'bench/src', 'proof', 'tools'];

/**
 * What is never the project's own code, wherever it lies: installed packages, build output,
 * caches and reports that tools write, and declaration files.
 *
 * @example
 * NOT_SOURCE.test('packages/core/dist/index.js') // true
 */
export const NOT_SOURCE = /(^|\/)(node_modules|dist|\.wrangler|\.turbo|\.deno|reports|results)\/|\.d\.[cm]?ts$/;
