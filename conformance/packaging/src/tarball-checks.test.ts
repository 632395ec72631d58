// The checks on packed packages find what they are there to find (packed.test.ts shows they pass
// on the real tarballs; these show they would fail).
import { publint } from 'publint';
import { describe, expect, it } from 'vitest';
import { contentProblems, sourceMapProblems, undeclaredImports, unpublishableRanges } from './tarball-checks.ts';

const encoder = new TextEncoder();
const filesOf = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([path, text]) => [path, encoder.encode(text)] as const));

describe('unpublishableRanges', () => {
  it('flags ranges only the workspace understands, in every dependency field', () => {
    expect(unpublishableRanges({
      name: 'a', version: '1.0.0',
      dependencies: { b: 'workspace:*', c: '^1.0.0' }, devDependencies: { d: 'link:../d' }, peerDependencies: { e: 'catalog:' },
    })).toEqual(['dependencies.b is "workspace:*"', 'peerDependencies.e is "catalog:"', 'devDependencies.d is "link:../d"']);
  });
});

describe('sourceMapProblems', () => {
  it('flags a map whose source is not shipped, and a comment naming a missing map', () => {
    const files = filesOf({
      'dist/a.js': 'export {};\n//# sourceMappingURL=a.js.map',
      'dist/a.js.map': '{"version":3,"sources":["../src/a.ts"],"mappings":""}',
      'dist/b.d.ts': 'export {};\n//# sourceMappingURL=b.d.ts.map',
    });
    expect(sourceMapProblems(files)).toEqual([
      'dist/a.js.map points at src/a.ts, which is not in the package',
      'dist/b.d.ts names the map b.d.ts.map, which is not in the package',
    ]);
    expect(sourceMapProblems(new Map([...files, ['src/a.ts', new Uint8Array()], ['dist/b.d.ts.map', encoder.encode('{"sources":[]}')]]))).toEqual([]);
  });
});

describe('undeclaredImports', () => {
  const manifest = { name: 'a', version: '1.0.0', dependencies: { b: '1.0.0' }, peerDependencies: { '@s/c': '^1' }, devDependencies: { d: '1.0.0' } };

  it('flags a devDependency or undeclared package, and a relative file not packed', () => {
    const files = filesOf({
      'dist/index.js': "import 'b/sub';\nimport { x } from '@s/c/y.js';\nexport * from './gone.js';\nconst d = await import('d');",
      'dist/index.d.ts': "export * from './here.ts';\nimport type { E } from 'e';",
      'dist/here.d.ts': '',
    });
    expect(undeclaredImports(manifest, files)).toEqual([
      'dist/index.js imports ./gone.js, which is not in the package',
      'dist/index.js imports d, which the manifest does not declare',
      'dist/index.d.ts imports e, which the manifest does not declare',
    ]);
  });

  it('lets built-ins, runtime schemes, the package itself and imports in comments or sources pass', () => {
    const files = filesOf({
      'dist/index.js': "import 'node:fs';\nimport 'fs';\nimport 'cloudflare:workers';\nimport 'a/x';\n/** import 'nope'; */",
      'src/index.ts': "import 'nope';",
    });
    expect(undeclaredImports(manifest, files)).toEqual([]);
  });
});

describe('contentProblems', () => {
  it('flags a missing or different LICENSE, a missing README and test files', () => {
    expect(contentProblems(filesOf({ 'dist/a.js': '', 'src/a.test.ts': '', 'src/test-support/x.ts': '' }), 'MIT')).toEqual([
      'no LICENSE', 'no README.md', 'src/a.test.ts is a test file', 'src/test-support/x.ts is a test file',
    ]);
    expect(contentProblems(filesOf({ LICENSE: 'other', 'README.md': '' }), 'MIT')).toEqual(['LICENSE differs from the repository LICENSE']);
  });
});

describe('publint --strict, as the packed test calls it', () => {
  it('fails a package whose exports list types after default', async () => {
    const manifest = { name: 'a', version: '1.0.0', type: 'module', exports: { '.': { default: './index.js', types: './index.d.ts' } } };
    const files = [
      { name: 'package/package.json', data: JSON.stringify(manifest) },
      { name: 'package/index.js', data: 'export {};' },
      { name: 'package/index.d.ts', data: 'export {};' },
    ];
    const { messages } = await publint({ pkgDir: 'package', pack: { files }, strict: true, level: 'suggestion' });
    expect(messages.map((m) => m.code)).toContain('EXPORTS_TYPES_SHOULD_BE_FIRST');
  });
});
