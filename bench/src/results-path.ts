import { fileURLToPath } from 'node:url';

/** The committed results (figures the README and docs cite): only a full run writes here. */
const COMMITTED = new URL('../results/', import.meta.url);
/** Everything else (quick, short, resized runs): git-ignored. */
const LOCAL = new URL('../results/local/', import.meta.url);

/**
 * Where a run writes its JSON when not given `--out`: a full run updates the committed file
 * (`bench/results/latest.json`, `bench/results/soak.json`, `bench/results/runtimes.json`); a quick, short or resized run
 * writes to `bench/results/local/`, which git ignores, so it never overwrites the figures
 * the docs cite.
 *
 * @example
 * defaultResultsPath('bench', { full: false }); // …/bench/results/local/latest.json
 * defaultResultsPath('soak', { full: false, short: true }); // …/bench/results/local/soak-short.json
 * defaultResultsPath('runtimes', { full: true }); // …/bench/results/runtimes.json
 */
export function defaultResultsPath(run: 'bench' | 'soak' | 'runtimes', { full, short = false }: { readonly full: boolean; readonly short?: boolean }): string {
  const name = run === 'bench' ? 'latest.json' : run === 'runtimes' ? 'runtimes.json' : short ? 'soak-short.json' : 'soak.json';
  return fileURLToPath(new URL(name, full ? COMMITTED : LOCAL));
}
