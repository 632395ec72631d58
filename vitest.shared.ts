import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

const resultsDir = fileURLToPath(new URL('./.test-results/', import.meta.url));
const FAST_CHECK_SETUP = fileURLToPath(new URL('./vitest.fast-check.ts', import.meta.url));

/** The result file of a package: `@mcp-resilience/core` → `mcp-resilience__core.json`. */
export function resultFileName(packageName: string): string {
  return `${packageName.replace(/^@/, '').replace('/', '__')}.json`;
}

const INCLUDE = ['src/**/*.test.ts'];

/**
 * A package's test files in two projects: the files that mock a module (`vi.mock`), each with a
 * module graph of its own, and every other file sharing one module graph per worker (the SDK and
 * the engine imported once per worker, not once per file). For a package whose other files mock
 * no module, stub no global, fake no timers and read no module state another file leaves behind.
 *
 * @example
 * export default packageTestConfig(import.meta.url, { ...isolatedOnly(['src/mocks-the-sdk.test.ts']) });
 */
export function isolatedOnly(files: string[]): NonNullable<ViteUserConfig['test']> {
  return {
    projects: [
      { extends: true, test: { name: 'shared', include: INCLUDE, exclude: [...configDefaults.exclude, ...files], isolate: false } },
      { extends: true, test: { name: 'isolated', include: files, isolate: true } },
    ],
  };
}

/**
 * Vitest settings every package shares: tests beside the sources, a JSON result file per
 * package in `.test-results/` that `scripts/run-tests.mjs` sums into one closing line, and, in a
 * package with fast-check, one seed for every property (`vitest.fast-check.ts`).
 *
 * @example
 * export default packageTestConfig(import.meta.url);
 */
export function packageTestConfig(configUrl: string, test: ViteUserConfig['test'] = {}) {
  const manifest = JSON.parse(readFileSync(new URL('./package.json', configUrl), 'utf8')) as { name: string; devDependencies?: Record<string, string> };
  return defineConfig({
    test: {
      // With projects (isolatedOnly), each project names its files: a root include would add to theirs.
      ...(test.projects ? {} : { include: INCLUDE }),
      // Properties draw from one seed on every machine (FC_SEED to replay another).
      ...(manifest.devDependencies?.['fast-check'] ? { setupFiles: [FAST_CHECK_SETUP] } : {}),
      // A poll waits for what happens within milliseconds: its cap is a hang guard, not vitest's 1 s, which a busy machine can pass.
      expect: { poll: { timeout: 10_000 } },
      reporters: ['default', 'json'],
      outputFile: { json: `${resultsDir}${resultFileName(manifest.name)}` },
      ...test,
    },
  });
}
