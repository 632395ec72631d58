// The packed tarballs installed with npm in a fresh project outside the workspace, and the root
// README's application example run there as written, against mcp-chaos from the chaos tarball.
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runExample } from './example-process.ts';
import { CLOSED_REGISTRY, installTarballs, npmEnv, type NpmProject } from './npm-project.ts';
import { exampleProgram, readmeExample } from './readme-example.ts';
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

  it('prints what the README says, through an eviction between two lines: one re-initialization', async () => {
    writeFileSync(join(project.dir, 'app.mjs'), example.program);
    const chaosEntry = createRequire(join(project.dir, 'package.json')).resolve('@mcp-resilience/chaos');
    const { startChaosProcess } = (await import(pathToFileURL(chaosEntry).href)) as typeof import('@mcp-resilience/chaos');
    const chaos = await startChaosProcess();
    const app = runExample(project.dir, 'app.mjs', [chaos.url]);
    try {
      // The reader types each line the README shows echoed on stdout, and sends the fault after
      // the first answer; before typing the next line they wait, as the README says, for what it
      // prints before that answer.
      const [first, second] = example.printed.flatMap((p, at) => (p.stream === 'stdout' ? [at] : []));
      expect(second).toBeDefined();
      const countBefore = (at: number, stream: 'stdout' | 'stderr') => example.printed.slice(0, at).filter((p) => p.stream === stream).length;
      app.type(example.printed[first!]!.line);
      await app.waitForLines('stdout', 1);
      const applied = await fetch(`${chaos.control}/faults`, { method: 'POST', body: JSON.stringify(example.fault) });
      expect(await applied.json()).toEqual({ applied: 1 });
      await app.waitForLines('stderr', countBefore(second!, 'stderr'));
      app.type(example.printed[second!]!.line);
      await app.waitForLines('stdout', 2);
      expect(await app.end()).toBe(0);

      const of = (stream: 'stdout' | 'stderr') => example.printed.filter((p) => p.stream === stream).map((p) => p.line);
      expect(app.stdout).toEqual(of('stdout'));
      expect(app.stderr).toEqual(of('stderr'));
      const { log } = (await (await fetch(`${chaos.control}/state`)).json()) as { log: { rpcMethod?: string; status: number }[] };
      expect(log.filter((entry) => entry.rpcMethod === 'initialize').length).toBe(2);
      expect(log.filter((entry) => entry.rpcMethod === 'tools/call').map((entry) => entry.status)).toEqual([200, 200]);
    } finally {
      app.stop();
      await chaos.stop();
    }
  });
});

describe('npx mcp-chaos check, from the chaos tarball', () => {
  it("scores the churn check's SDK 1.x adapter with @mcp-resilience/node (docs/churn-check.md) in the fresh project, and exits 0", async () => {
    for (const file of ['workload.mjs', 'sdk-1x-resilient.mjs']) {
      copyFileSync(fileURLToPath(new URL(`conformance/churn-scoreboard/clients/${file}`, ROOT)), join(project.dir, file));
    }
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'mcp-chaos', 'check', '--client', 'node sdk-1x-resilient.mjs', '--scenario', 'restart', '--scenario', 'gone-go-sdk'],
      { cwd: project.dir, env: npmEnv(), timeout: 60_000 });
    expect(stdout.trim().split('\n').at(-1)).toBe('churn check: 11/11 checks, 2/2 scenarios');
  });

  it.runIf(spawnSync('python3', ['--version']).status === 0)('scores the Python client of docs/churn-check.md there too (where python3 is present)', async () => {
    copyFileSync(fileURLToPath(new URL('conformance/churn-scoreboard/clients/python-client.py', ROOT)), join(project.dir, 'client.py'));
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'mcp-chaos', 'check', '--client', 'python3 client.py', '--scenario', 'forbidden-403'],
      { cwd: project.dir, env: npmEnv(), timeout: 60_000 });
    expect(stdout.trim().split('\n').at(-1)).toBe('churn check: 4/4 checks, 1/1 scenarios');
  });
});
