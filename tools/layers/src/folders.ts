import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The folders a pattern names under `root`: `packages/*\/src` is the `src` of every folder of
 * `packages` that has one; a pattern without `*` is itself, if it exists.
 *
 * @example
 * expandFolders('/repo', ['packages/*\/src', 'bench/src']) // ['packages/core/src', …, 'bench/src']
 */
export function expandFolders(root: string, patterns: readonly string[]): string[] {
  return patterns.flatMap((pattern) => expand(root, pattern.split('/'), ''));
}

function expand(root: string, parts: readonly string[], at: string): string[] {
  const [head, ...rest] = parts;
  if (head === undefined) return existsSync(join(root, at)) ? [at] : [];
  if (head !== '*') return expand(root, rest, at === '' ? head : `${at}/${head}`);
  if (!existsSync(join(root, at))) return [];
  return readdirSync(join(root, at), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => entry.name)
    .sort()
    .flatMap((name) => expand(root, rest, `${at}/${name}`));
}
