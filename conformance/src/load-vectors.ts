/**
 * Node-only: reads the vector files from disk. Other runtimes load the same JSON their own
 * way and hand it to `checkVectorFile`.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding the vectors, `conformance/vectors/`. */
export const VECTORS_DIR = fileURLToPath(new URL('../vectors/', import.meta.url));

/** One vector file as read: its path relative to the vectors folder (with `/`) and its JSON. */
export interface LoadedVector {
  readonly path: string;
  readonly json: unknown;
}

/**
 * Every `*.json` under `dir`, recursively, sorted by path. Throws, naming the file, on JSON
 * that does not parse.
 *
 * @example
 * for (const { path, json } of loadVectors()) console.log(path, checkVectorFile(json).length);
 */
export function loadVectors(dir: string = VECTORS_DIR): LoadedVector[] {
  const paths = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.split(sep).join('/'))
    .sort();
  return paths.map((path) => {
    const text = readFileSync(join(dir, path), 'utf8');
    try {
      return { path, json: JSON.parse(text) as unknown };
    } catch (error) {
      throw new Error(`vectors/${path}: not valid JSON (${String(error)})`, { cause: error });
    }
  });
}
