import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Deno, workerd and a page run this package: web-standard APIs only, and the files reach it as data.
const FORBIDDEN = [
  /from\s+['"]node:/, /import\s*\(\s*['"]node:/, /\brequire\s*\(/, /\bprocess\./, /\bDeno\./, /\bBuffer\b/,
  /\bimport\.meta\.(dirname|filename|url|resolve)\b/, /\b(readFile|readdir|readTextFile|writeFile)\w*\s*\(/, /\bfs\b/,
  /\beval\s*\(/, /\bnew Function\b/,
];
/** Packages it may import: pure ones (core, the fault vocabulary of chaos without its server). */
const ALLOWED_PACKAGES = ['@mcp-resilience/core', '@mcp-resilience/chaos/faults'];

const dir = import.meta.dirname;
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const code = (file: string) => readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

describe('the runner is runtime-neutral', () => {
  it('has sources to check', () => {
    expect(sources.length).toBeGreaterThan(10);
  });

  it.each(sources)('%s imports no node: module and touches no file, process or runtime global', (file) => {
    for (const pattern of FORBIDDEN) expect(code(file), `${file} matches ${pattern}`).not.toMatch(pattern);
  });

  it.each(sources)('%s imports only its own files and pure packages', (file) => {
    const imported = [...code(file).matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
    for (const spec of imported) expect(spec.startsWith('./') || ALLOWED_PACKAGES.includes(spec), `${file} imports ${spec}`).toBe(true);
  });

  it('compiles against ES2022 and the DOM alone, with no runtime types', () => {
    const tsconfig = JSON.parse(readFileSync(join(dir, '..', 'tsconfig.json'), 'utf8'));
    expect(tsconfig.compilerOptions.lib).toEqual(['ES2022', 'DOM', 'DOM.Iterable']);
    expect(tsconfig.compilerOptions.types).toEqual([]);
  });

  it('declares no dependency it could not run without Node', () => {
    const manifest = JSON.parse(readFileSync(join(dir, '..', 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@mcp-resilience/chaos', '@mcp-resilience/core']);
  });
});
