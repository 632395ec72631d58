// After `changeset version`: each package published to JSR too (a deno.json beside its
// package.json) takes the version changesets gave its package.json, so `deno publish` releases
// the same version on JSR as npm gets. The root `release:version` script runs it.
// Usage: node scripts/sync-jsr-versions.mjs   (prints one line per deno.json it changed)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Sets the `version` of every `packages/<name>/deno.json` to its `package.json`'s, and returns
 * what it changed. A deno.json that names another package than its package.json is an error.
 *
 * @example
 * syncJsrVersions('.'); // [{ file: 'packages/core/deno.json', from: '0.0.0', to: '0.1.0' }, …]
 * @param {string} root the repository's root
 * @returns {{ file: string, from: string, to: string }[]}
 */
export function syncJsrVersions(root) {
  const changed = [];
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const denoFile = join(root, 'packages', name, 'deno.json');
    if (!existsSync(denoFile)) continue;
    const npm = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
    const text = readFileSync(denoFile, 'utf8');
    const jsr = JSON.parse(text);
    if (jsr.name !== npm.name) throw new Error(`packages/${name}/deno.json names ${jsr.name}, its package.json ${npm.name}`);
    if (jsr.version === npm.version) continue;
    // Only the version line changes: the file keeps its layout.
    writeFileSync(denoFile, text.replace(/("version"\s*:\s*)"[^"]*"/, `$1${JSON.stringify(npm.version)}`));
    changed.push({ file: `packages/${name}/deno.json`, from: jsr.version, to: npm.version });
  }
  return changed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const { file, from, to } of syncJsrVersions(join(import.meta.dirname, '..'))) console.log(`${file}: ${from} → ${to}`);
}
