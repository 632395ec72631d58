// The release as the workflow runs it, rehearsed on a copy of the repository against a registry on
// 127.0.0.1 (globalSetup): what its `version` command changed, what its `publish` command put on
// the registry, and that the checkout was left as it was.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { REHEARSAL_REPOSITORY } from './release-rehearsal.ts';
import './provided-context.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const registry = inject('registry');
const copy = inject('releasedCopy');
const released = inject('released');
const version = released[0]!.newVersion;
const changesetsIn = (root: string) => readdirSync(join(root, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
/** The largest bump the checkout's changesets ask for: the fixed group's whole release takes it. */
const bump = (['major', 'minor', 'patch'] as const).find((type) =>
  changesetsIn(ROOT).some((file) => new RegExp(`^['"]?@mcp-resilience/[^:]+:\\s*${type}\\s*$`, 'm').test(readFileSync(join(ROOT, '.changeset', file), 'utf8'))));
/** `version` bumped as semver bumps it (the changesets' way): 0.0.0 + minor = 0.1.0. */
function bumped(from: string, type: 'major' | 'minor' | 'patch'): string {
  const [major, minor, patch] = from.split('.').map(Number) as [number, number, number];
  return type === 'major' ? `${major + 1}.0.0` : type === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { version: string };
/** The packument the registry serves for a package, as npm reads it. */
async function packument(name: string) {
  const response = await fetch(`${registry}${name.replace('/', '%2f')}`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as { 'dist-tags'?: Record<string, string>; versions?: Record<string, { dependencies?: Record<string, string>; repository?: unknown }> } };
}

describe('the release version command (changeset version, then the JSR manifests)', () => {
  it("gives every published package one new version (the fixed group): the changesets' largest bump", () => {
    expect(released.map((r) => r.name)).toEqual(['browser', 'chaos', 'client', 'cloudflare', 'core', 'deno', 'node', 'otel'].map((n) => `@mcp-resilience/${n}`));
    expect(new Set(released.map((r) => r.oldVersion)).size).toBe(1);
    expect(bump).toBeDefined();
    expect(released.map((r) => `${r.name}@${r.newVersion}`)).toEqual(released.map((r) => `${r.name}@${bumped(r.oldVersion, bump!)}`));
  });

  it("writes each package's CHANGELOG from its changesets, and consumes them", () => {
    for (const { name, folder } of released) {
      const changelog = readFileSync(join(copy, 'packages', folder, 'CHANGELOG.md'), 'utf8');
      expect(changelog, name).toMatch(new RegExp(`^# ${name}\\n\\n## ${version.replaceAll('.', '\\.')}\\n`));
    }
    expect(changesetsIn(copy)).toEqual([]);
  });

  it('gives each JSR manifest (deno.json) the version of its package.json', () => {
    const withDeno = released.filter(({ folder }) => existsSync(join(copy, 'packages', folder, 'deno.json')));
    expect(withDeno.map((p) => p.name)).toEqual(['@mcp-resilience/client', '@mcp-resilience/core', '@mcp-resilience/deno', '@mcp-resilience/otel']);
    for (const { name, folder } of withDeno) expect(json(join(copy, 'packages', folder, 'deno.json')).version, name).toBe(version);
    expect(inject('versionOutput')).toContain(`packages/deno/deno.json: ${released[0]!.oldVersion} → ${version}`);
  });
});

describe('the release publish command (changeset publish), to the registry', () => {
  it('put every published package there at the new version, tagged latest', async () => {
    for (const { name } of released) {
      const { status, body } = await packument(name);
      expect(status, name).toBe(200);
      expect(body['dist-tags'], name).toEqual({ latest: version });
      expect(Object.keys(body.versions ?? {}), name).toEqual([version]);
    }
    expect(inject('publishOutput')).toContain('packages published successfully');
  });

  it("named the repository the job ran in, in every published manifest (npm provenance): the workflow's step, from GITHUB_SERVER_URL and GITHUB_REPOSITORY", async () => {
    const url = `git+${REHEARSAL_REPOSITORY.GITHUB_SERVER_URL}/${REHEARSAL_REPOSITORY.GITHUB_REPOSITORY}.git`;
    for (const { name, folder } of released) {
      const { body } = await packument(name);
      expect(body.versions?.[version]?.repository, name).toEqual({ type: 'git', url, directory: `packages/${folder}` });
    }
    // The step named the published packages, each once, and nothing else.
    const written = inject('repositoryOutput').trim().split('\n').sort();
    expect(written).toEqual(released.map((r) => `packages/${r.folder}/package.json: repository ${url}`).sort());
  });

  it('published the dependencies on our own packages at that version (no workspace: range)', async () => {
    const { body } = await packument('@mcp-resilience/node');
    expect(body.versions?.[version]?.dependencies).toEqual({ '@mcp-resilience/client': version, '@mcp-resilience/core': version });
  });

  it('tagged the release commit with each package and version', () => {
    const tags = execFileSync('git', ['tag', '--list'], { cwd: copy, encoding: 'utf8' }).trim().split('\n');
    expect(tags.sort()).toEqual(released.map((r) => `${r.name}@${version}`).sort());
  });

  it('holds nothing else: the registry proxies nothing (a third-party package is a 404 there)', async () => {
    expect((await packument('@modelcontextprotocol/sdk')).status).toBe(404);
    expect(readdirSync(join(inject('storage'), '@mcp-resilience')).sort()).toEqual(released.map((r) => r.name.split('/')[1]).sort());
  });
});

describe('the checkout', () => {
  it('is left as it was: the versions of package.json and deno.json, the changesets', () => {
    for (const { name, folder, oldVersion } of released) {
      expect(json(join(ROOT, 'packages', folder, 'package.json')).version, name).toBe(oldVersion);
      const deno = join(ROOT, 'packages', folder, 'deno.json');
      if (existsSync(deno)) expect(json(deno).version, name).toBe(oldVersion);
    }
    expect(changesetsIn(ROOT)).not.toEqual([]);
  });
});
