import { readFileSync } from 'node:fs';
import { unpack } from '@publint/pack';

/** The fields of a published manifest the checks read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly [field: string]: unknown;
}

/** A packed package: its files by path inside the package (`dist/index.js`), and its manifest. */
export interface Tarball {
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly manifest: Manifest;
  /** The bytes of the tarball, for publint and the install. */
  readonly bytes: Uint8Array;
}

const decoder = new TextDecoder();

/** A file of the package as text. */
export function textOf(files: ReadonlyMap<string, Uint8Array>, path: string): string {
  const data = files.get(path);
  if (data === undefined) throw new Error(`${path} is not in the package`);
  return decoder.decode(data);
}

/**
 * Reads a `.tgz` as npm would unpack it, with the paths relative to the package's root.
 *
 * @example
 * const { manifest, files } = await readTarball('/tmp/packed/mcp-resilience-core-0.0.0.tgz');
 * files.has('LICENSE'); // true
 */
export async function readTarball(path: string): Promise<Tarball> {
  const bytes = new Uint8Array(readFileSync(path));
  const { files, rootDir } = await unpack(bytes);
  const byPath = new Map(files.map((f) => [f.name.slice(rootDir.length + 1), f.data] as const));
  return { files: byPath, manifest: JSON.parse(textOf(byPath, 'package.json')) as Manifest, bytes };
}
