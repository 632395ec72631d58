// The release plan: every published package versions in the one fixed group, each one not yet
// released has its first-release changeset, and `changeset status` accepts the plan.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import './provided-context.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHANGESETS = new URL('../../../.changeset/', import.meta.url);
const run = promisify(execFile);
const packed = inject('packed');

const config = JSON.parse(readFileSync(new URL('config.json', CHANGESETS), 'utf8')) as { fixed: string[][] };
const changesets = readdirSync(CHANGESETS).filter((f) => f.endsWith('.md') && f !== 'README.md').map((file) => {
  const [, front = '', body = ''] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(readFileSync(new URL(file, CHANGESETS), 'utf8')) ?? [];
  const packages = [...front.matchAll(/^['"]?([^'":]+)['"]?:\s*(major|minor|patch)$/gm)].map((m) => m[1]!);
  return { file, packages, body: body.trim() };
});

/** A changesets package glob (`@mcp-resilience/*`) as a test of one name. */
const matches = (glob: string, name: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`).test(name);

describe('changesets', () => {
  it('puts every published package in one fixed group', () => {
    for (const { name } of packed) {
      expect(config.fixed.filter((group) => group.some((glob) => matches(glob, name))), name).toHaveLength(1);
    }
    expect(new Set(packed.map(({ name }) => config.fixed.findIndex((g) => g.some((glob) => matches(glob, name))))).size).toBe(1);
  });

  it('has a first-release changeset for each package not released yet', () => {
    const unreleased = packed.filter((p) => p.version === '0.0.0').map((p) => p.name);
    const announced = changesets.filter((c) => c.body.startsWith('First release')).flatMap((c) => c.packages);
    expect(unreleased.filter((name) => !announced.includes(name))).toEqual([]);
  });

  it('every changeset names only published packages', () => {
    const published = packed.map((p) => p.name);
    expect(changesets.flatMap((c) => c.packages.filter((name) => !published.includes(name)).map((name) => `${c.file}: ${name}`))).toEqual([]);
  });

  it('`changeset status` accepts the plan', async () => {
    const result: { code?: number; stdout?: string; stderr?: string } = await run('pnpm', ['changeset', 'status'], { cwd: ROOT })
      .catch((error: { code?: number; stdout?: string; stderr?: string }) => error);
    expect(`exit ${result.code ?? 0}\n${result.stdout}${result.stderr}`).toMatch(/^exit 0\n/);
  });
});
