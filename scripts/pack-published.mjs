// Packs every published package of the workspace (those not `private`) the way `changeset
// publish` publishes them: with pnpm, which writes real versions for `workspace:*` and adds the
// repository's LICENSE. `pnpm tarballs` runs it after a build; conformance/packaging packs with it.
// Usage: node scripts/pack-published.mjs <folder>   (prints one tarball path a line)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** @typedef {{ name: string, version: string, dir: string }} WorkspacePackage */
/** @typedef {WorkspacePackage & { tarball: string }} PackedPackage */

const ROOT = join(import.meta.dirname, '..');

/** @param {readonly string[]} args */
function pnpm(args) {
  return execFileSync('pnpm', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The workspace's packages that `changeset publish` would publish: every one not `private`.
 *
 * @example
 * publishedPackages().map((p) => p.name); // ['@mcp-resilience/browser', '@mcp-resilience/chaos', …]
 * @returns {WorkspacePackage[]}
 */
export function publishedPackages() {
  /** @type {{ name: string, version: string, path: string, private?: boolean }[]} */
  const all = JSON.parse(pnpm(['ls', '--recursive', '--depth', '-1', '--json']));
  return all
    .filter((p) => !p.private)
    .map((p) => ({ name: p.name, version: p.version, dir: p.path }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Packs each published package (its `dist` must be built) into `destination`, with one pnpm run,
 * after removing the tarballs of an earlier run there (so `npm i folder/*.tgz` takes one of each).
 *
 * @example
 * const packed = packPublished('/tmp/tarballs');
 * packed[0].tarball; // '/tmp/tarballs/mcp-resilience-browser-0.0.0.tgz'
 * @param {string} destination
 * @returns {PackedPackage[]}
 */
export function packPublished(destination) {
  const packages = publishedPackages();
  const folder = resolve(destination);
  mkdirSync(folder, { recursive: true });
  for (const old of readdirSync(folder).filter((f) => /^mcp-resilience-.*\.tgz$/.test(f))) rmSync(join(folder, old));
  pnpm(['--recursive', ...packages.flatMap((p) => ['--filter', p.name]), 'pack', '--pack-destination', folder]);
  const files = new Set(readdirSync(folder));
  return packages.map((p) => {
    const file = `${p.name.replace(/^@/, '').replace('/', '-')}-${p.version}.tgz`;
    if (!files.has(file)) throw new Error(`pnpm pack wrote no ${file} for ${p.name} in ${folder}`);
    return { ...p, tarball: join(folder, file) };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const destination = process.argv[2];
  if (!destination) {
    console.error('usage: node scripts/pack-published.mjs <folder>');
    process.exit(2);
  }
  for (const { tarball } of packPublished(destination)) console.log(tarball);
}
