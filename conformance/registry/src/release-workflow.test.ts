// The release workflow a maintainer runs on GitHub Actions names only scripts, packages and tool
// versions that exist in the repository, and has what a release needs (provenance, OIDC for JSR).
// The commands the rehearsal runs are the ones read from it (release.test.ts).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { repositoryUrl } from '../../../scripts/set-repository-url.mjs';
import { readReleaseWorkflow } from './release-workflow.ts';
import { workflowProblems, type RepositoryFacts } from './workflow-problems.ts';
import './provided-context.ts';

/** The published packages (globalSetup asked pnpm once for the run). */
const published = inject('released').map((r) => r.name);

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const text = read('.github/workflows/release.yml');
const root = JSON.parse(read('package.json')) as { scripts: Record<string, string>; packageManager: string; engines: { node: string } };
const workspace = (parse(read('pnpm-workspace.yaml')) as { packages: string[] }).packages;
const names = workspace.filter((glob) => !glob.endsWith('*')).map((dir) => (JSON.parse(read(`${dir}/package.json`)) as { name: string }).name);
const facts: RepositoryFacts = {
  scripts: root.scripts,
  packages: [...names, ...published],
  pnpm: root.packageManager.replace(/^pnpm@/, ''),
  deno: (JSON.parse(read('packages/deno/package.json')) as { devDependencies: Record<string, string> }).devDependencies['deno']!,
  node: root.engines.node.replace(/^>=/, ''),
  exists: (path) => existsSync(new URL(`../../../${path}`, import.meta.url)),
};

describe('.github/workflows/release.yml', () => {
  const workflow = readReleaseWorkflow(text);

  it('runs on every push to the base branch changesets compares with', () => {
    const { baseBranch } = JSON.parse(read('.changeset/config.json')) as { baseBranch: string };
    expect(workflow.on).toEqual({ push: { branches: [baseBranch] } });
  });

  it('names only scripts, packages and tool versions that exist, and has what a release needs', () => {
    expect(workflowProblems(workflow, facts)).toEqual([]);
  });

  it("publishes to JSR exactly the root Deno workspace's named members, each a published npm package", () => {
    const members = (JSON.parse(read('deno.json')) as { workspace: string[] }).workspace
      .map((dir) => JSON.parse(read(`${dir}/deno.json`)) as { name?: string })
      .flatMap((manifest) => (manifest.name ? [manifest.name] : []));
    expect(members.sort()).toEqual(['@mcp-resilience/client', '@mcp-resilience/core', '@mcp-resilience/deno', '@mcp-resilience/otel']);
    expect(published).toEqual(expect.arrayContaining(members));
  });

  it('names the repository in the manifests from the CI environment, refusing a job without it', () => {
    expect(readReleaseWorkflow(text).repositoryCommand).toBe('node scripts/set-repository-url.mjs');
    expect(repositoryUrl({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/mcp-resilience' })).toBe('git+https://github.com/acme/mcp-resilience.git');
    for (const env of [{}, { GITHUB_SERVER_URL: 'https://github.com' }, { GITHUB_SERVER_URL: 'github.com', GITHUB_REPOSITORY: 'a/b' }, { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'a/b/c' }]) {
      expect(() => repositoryUrl(env), JSON.stringify(env)).toThrow(expect.objectContaining({ code: 'REPOSITORY_UNKNOWN' }));
    }
  });

  it('finds what it is there to find: a missing script, an unknown package, another pnpm, a lost permission, no repository step', () => {
    const broken = readReleaseWorkflow(text
      .replace('run: node scripts/set-repository-url.mjs', 'run: node scripts/set-repo-url.mjs')
      .replace('run: pnpm build', 'run: pnpm build:all')
      .replace('publish: pnpm release:publish', 'publish: pnpm --filter @mcp-resilience/nope release:publish')
      .replace('pnpm@10.34.9', 'pnpm@9.0.0')
      .replace('id-token: write', 'id-token: read'));
    expect(workflowProblems(broken, facts)).toEqual([
      'npm i -g pnpm@9.0.0: the repository pins pnpm@10.34.9',
      'pnpm build:all: the root package.json has no such script',
      'node scripts/set-repo-url.mjs: the repository has no scripts/set-repo-url.mjs',
      'pnpm --filter @mcp-resilience/nope: no workspace package is named so',
      'no step before changesets/action runs `node scripts/set-repository-url.mjs` (npm provenance needs repository.url)',
      "changesets' publish (pnpm --filter @mcp-resilience/nope release:publish) does not run `changeset publish`",
      'permissions.id-token is not write',
    ]);
  });
});
