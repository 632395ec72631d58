// `npm i @mcp-resilience/node @modelcontextprotocol/sdk` (the README's line for connect(): the SDK 1.x
// is an optional peer) in a fresh project outside the workspace, from the registry the
// release was rehearsed on, and the root README's example run there as written against mcp-chaos
// (a server of the run's pool: the chaos package's own install and bin are conformance/packaging's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WAIT_CAP_MS } from '../../packaging/src/example-process.ts';
import { npmProject, type NpmProject } from '../../packaging/src/npm-project.ts';
import { readmeExample } from '../../packaging/src/readme-example.ts';
import { runReadmeExample } from '../../packaging/src/readme-example-run.ts';
import { poolServer } from './chaos-pool.ts';
import { projectNpmrc } from './project-npmrc.ts';
import './provided-context.ts';

const registry = inject('registry');
const version = inject('released')[0]!.newVersion;
const example = readmeExample(readFileSync(new URL('../../../README.md', import.meta.url), 'utf8'));
let project: NpmProject;

beforeAll(async () => {
  project = await npmProject({ name: 'my-app', version: '1.0.0', private: true, type: 'module' }, projectNpmrc(registry), ['@mcp-resilience/node', '@modelcontextprotocol/sdk@1']);
  console.log(`npm i @mcp-resilience/node @modelcontextprotocol/sdk: ${project.seconds.toFixed(1)} s`);
});
afterAll(() => project?.remove());

describe('npm i @mcp-resilience/node @modelcontextprotocol/sdk, from the registry', () => {
  it('installs it with client and core from the registry by themselves, at the released version', () => {
    const ours = Object.entries(project.lock.packages).filter(([path]) => path.includes('node_modules/@mcp-resilience/'));
    expect(Object.fromEntries(ours.map(([path, { version: at, resolved }]) => [path, { version: at, resolved }]))).toEqual(
      Object.fromEntries(['client', 'core', 'node'].map((name) => [`node_modules/@mcp-resilience/${name}`, {
        version, resolved: `${registry}@mcp-resilience/${name}/-/${name}-${version}.tgz`,
      }])),
    );
    const manifest = JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies).toEqual({ '@mcp-resilience/node': `^${version}`, '@modelcontextprotocol/sdk': expect.stringMatching(/^\^1\./) });
  });

  it('takes the official SDK 1.x (its optional peer, for connect()) from npm, not from the registry on 127.0.0.1', () => {
    const sdk = project.lock.packages['node_modules/@modelcontextprotocol/sdk'];
    expect(sdk?.resolved).toMatch(/^https:\/\/registry\.npmjs\.org\/@modelcontextprotocol\/sdk\/-\/sdk-1\./);
    expect(project.log).not.toMatch(new RegExp(`GET \\d+ ${registry}@modelcontextprotocol`));
  });
});

describe("the root README's example, in that project", () => {
  // The app's first line may take a minute before it "did not start" (WAIT_CAP_MS): more than that.
  it('prints what the README says, through an eviction between two lines: one re-initialization', { timeout: WAIT_CAP_MS + 60_000 }, async () => {
    const chaos = await poolServer(inject('chaosControl'));
    try {
      const { observed, expected } = await runReadmeExample(project.dir, example, chaos);
      expect(observed).toEqual(expected);
    } finally {
      await chaos.stop();
    }
  });
});
