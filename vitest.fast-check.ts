import { relative } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * Every property of the suite draws from this seed, on every machine, so that the suite's verdict
 * is the same everywhere. Fresh seeds belong to `pnpm fuzz`; what it finds becomes an example.
 */
export const DEFAULT_SEED = 20261204;

/**
 * The seed properties draw from: `FC_SEED` when set (a replay, or `pnpm fuzz`), else {@link DEFAULT_SEED}.
 *
 * @example
 * propertySeed({ FC_SEED: '622324902' }); // 622324902
 */
export function propertySeed(env: Readonly<Record<string, string | undefined>>): number {
  const seed = env.FC_SEED ? Number(env.FC_SEED) : DEFAULT_SEED;
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, not ${JSON.stringify(env.FC_SEED)}`);
  return seed;
}

const quoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The one command that replays a failed property from the repository's root: the package's
 * folder, the seed, the test file and the test's name. The same seed draws the same runs, so the
 * replay meets the same failure (and shrinks it the same way).
 *
 * @example
 * replayCommand({ seed: 7, testPath: '/r/packages/core/src/a.property.test.ts', testName: 'x > y (z)', root: '/r' });
 * // "(cd packages/core && FC_SEED=7 npx vitest run src/a.property.test.ts -t 'y \(z\)')"
 */
export function replayCommand(failure: { seed: number; testPath: string; testName: string; root: string }): string {
  const fromRoot = relative(failure.root, failure.testPath);
  const [packageDir, file] = fromRoot.includes('/src/') ? [fromRoot.slice(0, fromRoot.indexOf('/src/')), fromRoot.slice(fromRoot.indexOf('/src/') + 1)] : ['.', fromRoot];
  const title = failure.testName.split(' > ').at(-1) ?? failure.testName;
  const pattern = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `(cd ${packageDir} && FC_SEED=${failure.seed} npx vitest run ${file} -t ${quoted(pattern)})`;
}

fc.configureGlobal({
  seed: propertySeed(process.env),
  // fast-check's own report, and under it the command that replays the failure.
  reporter(run) {
    if (!run.failed) return;
    const { testPath = '', currentTestName = '' } = expect.getState();
    const replay = replayCommand({ seed: run.seed, testPath, testName: currentTestName, root: import.meta.dirname });
    throw new Error(`${fc.defaultReportMessage(run)}\n\nReplay it from the repository's root:\n  ${replay}`, { cause: run.errorInstance });
  },
});
