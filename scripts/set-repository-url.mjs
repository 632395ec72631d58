// Before `changeset publish` on CI: npm refuses a provenance statement for a package whose
// package.json does not name the repository it was built from, and that URL is known only to the
// CI job. Sets `repository` in every published package.json (the packages `changeset publish`
// publishes: every workspace package not `private`) from GitHub Actions' environment:
// `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY`. .github/workflows/release.yml runs it before
// changesets' action; conformance/registry rehearses it with a made-up repository.
// Usage: GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=owner/name node scripts/set-repository-url.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { publishedPackages } from './pack-published.mjs';

const ROOT = join(import.meta.dirname, '..');

/** A missing or malformed CI variable: the release must not publish without its repository. */
export class RepositoryUrlError extends Error {
  code = 'REPOSITORY_UNKNOWN';
}

/**
 * The `repository.url` npm's provenance check compares with the repository that built the
 * package: `git+<server>/<owner>/<name>.git`.
 *
 * @example
 * repositoryUrl({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/mcp-resilience' });
 * // 'git+https://github.com/acme/mcp-resilience.git'
 * @param {Record<string, string | undefined>} env
 */
export function repositoryUrl(env) {
  const server = env.GITHUB_SERVER_URL ?? '';
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (!/^https:\/\/[^/\s]+$/.test(server)) throw new RepositoryUrlError(`GITHUB_SERVER_URL is not an https origin: ${JSON.stringify(server)}`);
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) throw new RepositoryUrlError(`GITHUB_REPOSITORY is not owner/name: ${JSON.stringify(repository)}`);
  return `git+${server}/${repository}.git`;
}

/**
 * Writes `repository: { type: 'git', url, directory }` into each published package's
 * package.json in the repository this script belongs to (its other fields and their order
 * kept), and says what it wrote.
 *
 * @example
 * setRepositoryUrl('git+https://github.com/acme/mcp-resilience.git');
 * // [{ name: '@mcp-resilience/browser', file: 'packages/browser/package.json' }, …]
 * @param {string} url
 * @returns {{ name: string, file: string }[]}
 */
export function setRepositoryUrl(url) {
  return publishedPackages().map(({ name, dir }) => {
    const file = join(dir, 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.name !== name) throw new Error(`${file} names ${manifest.name}, pnpm says ${name}`);
    manifest.repository = { type: 'git', url, directory: relative(ROOT, dir) };
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    return { name, file: relative(ROOT, file) };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const url = repositoryUrl(process.env);
    for (const { file } of setRepositoryUrl(url)) console.log(`${file}: repository ${url}`);
  } catch (error) {
    console.error(`set-repository-url: ${error.code ?? 'FAILED'}: ${error.message}`);
    process.exit(1);
  }
}
