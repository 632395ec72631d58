import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const resultsDir = fileURLToPath(new URL('./.test-results/', import.meta.url));

/**
 * Vitest settings every package shares: tests beside the sources, and a JSON result file
 * per package in `.test-results/` that `scripts/run-tests.mjs` sums into one closing line.
 *
 * @example
 * export default packageTestConfig('core');
 */
export function packageTestConfig(name: string, test: ViteUserConfig['test'] = {}) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts'],
      reporters: ['default', 'json'],
      outputFile: { json: `${resultsDir}${name}.json` },
      ...test,
    },
  });
}
