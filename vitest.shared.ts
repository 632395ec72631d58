import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const resultsDir = fileURLToPath(new URL('./.test-results/', import.meta.url));

/** The result file of a package: `@mcp-resilience/core` → `mcp-resilience__core.json`. */
export function resultFileName(packageName: string): string {
  return `${packageName.replace(/^@/, '').replace('/', '__')}.json`;
}

/**
 * Vitest settings every package shares: tests beside the sources, and a JSON result file
 * per package in `.test-results/` that `scripts/run-tests.mjs` sums into one closing line.
 *
 * @example
 * export default packageTestConfig(import.meta.url);
 */
export function packageTestConfig(configUrl: string, test: ViteUserConfig['test'] = {}) {
  const manifest = JSON.parse(readFileSync(new URL('./package.json', configUrl), 'utf8')) as { name: string };
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts'],
      reporters: ['default', 'json'],
      outputFile: { json: `${resultsDir}${resultFileName(manifest.name)}` },
      ...test,
    },
  });
}
