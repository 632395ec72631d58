// Deno in a fresh folder outside the workspace, its .npmrc pointing `@mcp-resilience` at the
// registry the release was rehearsed on: the Deno README's example with `npm:@mcp-resilience/deno`
// in place of `jsr:@mcp-resilience/deno`, run against mcp-chaos. Deno fetches the packages itself
// (into a DENO_DIR of the test's, removed after), the SDK from npm's registry. Deno 2.9 refuses npm
// versions younger than 24 hours by default (its minimum dependency age): a release is that young
// here, so the run says `--min-dep-age=0`, as a user must in the release's first day.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { denoBinary, denoEnv } from '../../../packages/deno/scripts/deno-env.mjs';
import { poolServer, type PoolServer } from './chaos-pool.ts';
import { projectNpmrc } from './project-npmrc.ts';
import './provided-context.ts';

const run = promisify(execFile);
const registry = inject('registry');
const version = inject('released')[0]!.newVersion;
const README = readFileSync(new URL('../../../packages/deno/README.md', import.meta.url), 'utf8');
const example = /```ts\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
const deno = denoBinary(fileURLToPath(new URL('../', import.meta.url)));

/** The folders of Deno's npm cache, as paths below it (`registry.npmjs.org/@scope/name/1.0.0`), 5 deep at most. */
function npmCache(root: string, below = '', depth = 5): string[] {
  if (depth === 0 || !existsSync(join(root, below))) return [];
  return readdirSync(join(root, below), { withFileTypes: true }).filter((e) => e.isDirectory())
    .flatMap((e) => [`${below}${e.name}`, ...npmCache(root, `${below}${e.name}/`, depth - 1)]);
}

let dir: string;
let chaos: PoolServer;
let port: string;
let result: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-resilience-deno-app-'));
  chaos = await poolServer(inject('chaosControl'));
  port = new URL(chaos.url).port;
  writeFileSync(join(dir, '.npmrc'), projectNpmrc(registry));
  writeFileSync(join(dir, 'deno.json'), '{}\n'); // the project's root: Deno reads the .npmrc beside it
  writeFileSync(join(dir, 'app.ts'), example.replace("'jsr:@mcp-resilience/deno'", "'npm:@mcp-resilience/deno'").replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`));
  const env = { ...denoEnv(), DENO_DIR: join(dir, '.deno') };
  result = await run(deno, ['run', '--no-prompt', '--min-dep-age=0', `--allow-net=127.0.0.1:${port}`, 'app.ts'], { cwd: dir, env, timeout: 120_000 })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (error: { code: number; stdout: string; stderr: string }) => error);
}, 180_000);
afterAll(async () => {
  await chaos?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Deno, npm:@mcp-resilience/deno from the registry', () => {
  it('uses the README example with only its import changed', () => {
    expect(example).toContain("from 'jsr:@mcp-resilience/deno'");
  });

  it("runs the README's example against mcp-chaos: the tool answers, and it exits 0", () => {
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(result.stdout).toContain('text: "hi"');
  });

  it('took @mcp-resilience/deno, client and core from the registry at the released version, the SDK from npm', () => {
    const port = new URL(registry).port;
    const cached = npmCache(join(dir, '.deno', 'npm'));
    // Where Deno keeps a registry's packages: a folder named after its host and port.
    const ours = cached.filter((path) => path.includes(port) && /\/@mcp-resilience\/[^/]+\/[^/]+$/.test(path));
    expect(ours.map((path) => path.replace(/^.*\/@mcp-resilience\//, '')).sort()).toEqual(['client', 'core', 'deno'].map((name) => `${name}/${version}`));
    expect(cached.filter((path) => path.includes(port) && path.includes('@modelcontextprotocol'))).toEqual([]);
    expect(cached.some((path) => /^registry\.npmjs\.org\/@modelcontextprotocol\/sdk\/1\./.test(path))).toBe(true);
  });
});
