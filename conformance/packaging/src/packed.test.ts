// Every published package, packed as `changeset publish` packs it, checked as a user would meet
// it on npm: installable versions, LICENSE, maps that lead to shipped sources, imports the
// install satisfies, and the two linters a package author runs (publint --strict, attw).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readTarball, type Tarball } from './tarball.ts';
import { contentProblems, sourceMapProblems, undeclaredImports, unpublishableRanges } from './tarball-checks.ts';
import './provided-context.ts';

const LICENSE = readFileSync(new URL('../../../LICENSE', import.meta.url), 'utf8');

const ATTW = fileURLToPath(new URL('./attw-esm-only.mjs', import.meta.url));
const run = promisify(execFile);
const packed = inject('packed');
const opened = new Map<string, Promise<Tarball>>();
/** Each tarball is read once for all the checks on it. */
const open = (tarball: string) => opened.get(tarball) ?? opened.set(tarball, readTarball(tarball)).get(tarball)!;

describe('the published packages', () => {
  it('are every @mcp-resilience package that is not private, all at one version (the fixed group)', () => {
    expect(packed.map((p) => p.name)).toEqual([
      '@mcp-resilience/browser', '@mcp-resilience/chaos', '@mcp-resilience/client', '@mcp-resilience/cloudflare',
      '@mcp-resilience/core', '@mcp-resilience/deno', '@mcp-resilience/node', '@mcp-resilience/otel',
    ]);
    expect(new Set(packed.map((p) => p.version)).size).toBe(1);
  });
});

describe.each(packed)('$name, packed', ({ name, tarball }) => {
  it('names real versions (no workspace: range) and is not private', async () => {
    const { manifest } = await open(tarball);
    expect(manifest.name).toBe(name);
    expect(manifest.private).toBeUndefined();
    expect(unpublishableRanges(manifest)).toEqual([]);
    // Its own packages at the version they are published with.
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@mcp-resilience/')) expect(range).toBe(manifest.version);
    }
  });

  it('says what npm shows and what bundlers and npm read: description, MIT, keywords, ESM, no side effects, public', async () => {
    const { manifest } = await open(tarball);
    expect(manifest).toMatchObject({ license: 'MIT', type: 'module', sideEffects: false, publishConfig: { access: 'public' } });
    expect(String(manifest.description ?? '').length).toBeGreaterThan(40);
    expect(manifest.keywords).toContain('mcp');
  });

  it('ships the LICENSE and README, and no test', async () => {
    const { files } = await open(tarball);
    expect(contentProblems(files, LICENSE)).toEqual([]);
  });

  it('ships the source every map points at', async () => {
    const { files } = await open(tarball);
    expect([...files.keys()].filter((f) => f.endsWith('.map')).length).toBeGreaterThan(0);
    expect(sourceMapProblems(files)).toEqual([]);
  });

  it('declares every package its code imports, and ships every file it imports', async () => {
    const { manifest, files } = await open(tarball);
    expect(undeclaredImports(manifest, files)).toEqual([]);
  });

  it('passes publint --strict', async () => {
    const { bytes } = await open(tarball);
    const { messages, pkg } = await publint({ pack: { tarball: bytes.slice().buffer }, strict: true, level: 'suggestion' });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });
});

describe('@arethetypeswrong/cli --profile esm-only', () => {
  let verdicts: Record<string, { exitCode: number; report: string }>;
  let broken: string;
  beforeAll(async () => {
    // With the real tarballs, one whose types entry names a file it does not ship: the check fails it.
    const dir = mkdtempSync(join(tmpdir(), 'mcp-resilience-attw-'));
    mkdirSync(join(dir, 'package'));
    writeFileSync(join(dir, 'package/package.json'), JSON.stringify({
      name: 'broken', version: '1.0.0', type: 'module', exports: { '.': { types: './missing.d.ts', default: './index.js' } },
    }));
    writeFileSync(join(dir, 'package/index.js'), 'export const a = 1;\n');
    broken = join(dir, 'broken.tgz');
    try {
      await run('tar', ['-czf', broken, '-C', dir, 'package']);
      const { stdout } = await run(process.execPath, [ATTW, ...packed.map((p) => p.tarball), broken], { maxBuffer: 16 * 1024 * 1024 });
      verdicts = JSON.parse(stdout) as typeof verdicts;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(packed)('passes for $name', ({ tarball }) => {
    expect(verdicts[tarball]!.exitCode, verdicts[tarball]!.report).toBe(0);
  });

  it('fails a package whose types are not shipped', () => {
    expect(verdicts[broken]!.exitCode).toBe(1);
  });
});
