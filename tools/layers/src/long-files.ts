import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** How long a source file may be: one concept a file, readable alone (docs/design.md). */
export const MAX_SOURCE_LINES = 300;

const SOURCE = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;
/** Tests and what only tests use: they are read beside what they test, not alone. */
const NOT_HELD = /(^|\/)(test-support|fixtures)\/|\.test\.[cm]?[jt]sx?$/;

/** A source file and its length in lines. */
export interface FileLength {
  readonly file: string;
  readonly lines: number;
}

/**
 * The source files under `folders` (relative to `root`) longer than `limit` lines, longest
 * first: TypeScript and JavaScript files, except tests, test-support, fixtures and whatever
 * `exclude` matches (installed packages, build output, declarations).
 *
 * @example
 * longSourceFiles('/repo', ['packages/core'], /node_modules|dist/) // [{ file: 'packages/core/src/big.ts', lines: 412 }]
 */
export function longSourceFiles(root: string, folders: readonly string[], exclude: RegExp, limit = MAX_SOURCE_LINES): FileLength[] {
  return folders
    .flatMap((folder) => filesUnder(root, folder, exclude))
    .filter((file) => SOURCE.test(file) && !NOT_HELD.test(file))
    .map((file) => ({ file, lines: lineCount(readFileSync(join(root, file), 'utf8')) }))
    .filter(({ lines }) => lines > limit)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

/** Lines as an editor numbers them: a last line without its newline counts too. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function filesUnder(root: string, folder: string, exclude: RegExp): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (exclude.test(entry.isDirectory() ? `${path}/` : path)) return [];
    if (entry.isDirectory()) return filesUnder(root, path, exclude);
    return entry.isFile() ? [path] : [];
  });
}
