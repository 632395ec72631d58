// The packed tarballs installed with npm in a fresh project outside the workspace, and the root
// README's application example run there as written, against mcp-chaos from the chaos tarball.
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeOutput, START_CAP_MS } from '@mcp-resilience/chaos/process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WAIT_CAP_MS } from './example-process.ts';
import { CLOSED_REGISTRY, installTarballs, npmEnv, type NpmProject } from './npm-project.ts';
import { exampleProgram, readmeExample } from './readme-example.ts';
import { runReadmeExample } from './readme-example-run.ts';
import './provided-context.ts';

const ROOT = new URL('../../../', import.meta.url);
const readme = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const example = readmeExample(readme('README.md'));
/** The SDK version the workspace tests against; a user's npm would pick the newest 1.x. */
const SDK = (JSON.parse(readme('packages/node/package.json')) as { devDependencies: Record<string, string> }).devDependencies['@modelcontextprotocol/sdk']!;

const packed = inject('packed');
let project: NpmProject;

beforeAll(async () => {
  project = await installTarballs(packed, { '@modelcontextprotocol/sdk': SDK });
  console.log(`npm install of ${packed.length} tarballs and their third-party dependencies: ${project.seconds.toFixed(1)} s`);
});
afterAll(() => project?.remove());

describe('the tarballs, installed with npm in a fresh project', () => {
  it('gave every @mcp-resilience package from its tarball, one copy each, without asking a registry for one', () => {
    const ours = Object.entries(project.lock.packages).filter(([path]) => path.includes('node_modules/@mcp-resilience/'));
    expect(Object.fromEntries(ours.map(([path, entry]) => [path, entry.resolved]))).toEqual(
      Object.fromEntries(packed.map((p) => [`node_modules/${p.name}`, expect.stringMatching(/^file:.*\.tgz$/)])),
    );
    expect(project.log).not.toContain(CLOSED_REGISTRY.replace(/\/$/, ''));
  });

  it('links the mcp-chaos bin (what `npx mcp-chaos` runs)', () => {
    expect(realpathSync(join(project.dir, 'node_modules/.bin/mcp-chaos')))
      .toBe(realpathSync(join(project.dir, 'node_modules/@mcp-resilience/chaos/bin/mcp-chaos.js')));
  });
});

describe("the README's application example, as written", () => {
  it("is the same program in the root README and in @mcp-resilience/node's", () => {
    expect(exampleProgram(readme('packages/node/README.md'))).toBe(example.program);
  });

  // mcp-chaos's start and the app's first line may each take a minute before they "did not start": more than both.
  it('prints what the README says, through an eviction between two lines: one re-initialization', { timeout: START_CAP_MS + WAIT_CAP_MS + 60_000 }, async () => {
    const { observed, expected } = await runReadmeExample(project.dir, example);
    expect(observed).toEqual(expected);
  });
});

/** A check of two scenarios takes seconds: two minutes is a hang. */
const CHECK_CAP_MS = 120_000;

/** `npx mcp-chaos check …args` in the project: its stdout; when it fails or hangs, the error shows all it printed. */
async function churnCheck(args: readonly string[]): Promise<string> {
  return promisify(execFile)('npx', ['--no-install', 'mcp-chaos', 'check', ...args], { cwd: project.dir, env: npmEnv(), timeout: CHECK_CAP_MS, killSignal: 'SIGKILL' }).then(
    ({ stdout }) => stdout,
    (error: { code?: number; killed?: boolean; stdout: string; stderr: string }) => {
      throw new Error(`mcp-chaos check ${args.join(' ')} ${error.killed ? `hung: killed after ${CHECK_CAP_MS / 1000} s` : `exited ${error.code}`}\n${describeOutput(error)}`);
    },
  );
}

describe('npx mcp-chaos check, from the chaos tarball', { timeout: CHECK_CAP_MS + 30_000 }, () => {
  it("scores the churn check's SDK 1.x adapter with @mcp-resilience/node (docs/churn-check.md) in the fresh project, and exits 0", async () => {
    for (const file of ['workload.mjs', 'oauth-provider.mjs', 'sdk-1x-resilient.mjs']) {
      copyFileSync(fileURLToPath(new URL(`conformance/churn-scoreboard/clients/${file}`, ROOT)), join(project.dir, file));
    }
    const stdout = await churnCheck(['--client', 'node sdk-1x-resilient.mjs', '--scenario', 'restart', '--scenario', 'gone-go-sdk']);
    expect(stdout.trim().split('\n').at(-1)).toBe('churn check: 11/11 checks, 2/2 scenarios');
  });

  it.runIf(spawnSync('python3', ['--version']).status === 0)('scores the Python client of docs/churn-check.md there too (where python3 is present)', async () => {
    copyFileSync(fileURLToPath(new URL('conformance/churn-scoreboard/clients/python-client.py', ROOT)), join(project.dir, 'client.py'));
    const stdout = await churnCheck(['--client', 'python3 client.py', '--scenario', 'forbidden-403']);
    expect(stdout.trim().split('\n').at(-1)).toBe('churn check: 4/4 checks, 1/1 scenarios');
  });
});
