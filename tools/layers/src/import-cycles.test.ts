import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandFolders } from './folders.ts';
import { describeCycle, findImportCycles } from './import-cycles.ts';
import { KNOWN_CYCLES, staleExceptions, unexplainedCycles } from './known-cycles.ts';
import { NOT_SOURCE, REPOSITORY_ROOT, SOURCE_FOLDERS } from './repository.ts';

// Imports point down, never in a loop, type imports included (docs/design.md). Within a
// package: here. Between packages: pnpm and turbo refuse a cycle of workspace dependencies.
describe('the import graph of the repository', async () => {
  const { files, cycles } = await findImportCycles(REPOSITORY_ROOT, expandFolders(REPOSITORY_ROOT, SOURCE_FOLDERS), NOT_SOURCE);

  it('has no cycle but those KNOWN_CYCLES lists (src/known-cycles.ts)', () => {
    expect(unexplainedCycles(cycles, KNOWN_CYCLES).map(describeCycle)).toEqual([]);
  });

  it('lists in KNOWN_CYCLES only files that are still in a cycle', () => {
    expect(staleExceptions(cycles, KNOWN_CYCLES)).toEqual([]);
  });

  it('was read whole: sources, tests and test-support of every part, and no build output', () => {
    const read = [
      'packages/client/src/engine.ts', 'packages/client/src/wire.test.ts', 'packages/client/src/test-support/hostile-server.ts',
      'packages/chaos/src/chaos-server.ts', 'apps/node-sample/src/main.ts', 'conformance/src/run-vector.ts', 'conformance/auth/src/support/token-ledger.ts',
      'bench/src/report.ts', 'proof/src/main.ts', 'tools/node-lines/src/node-binary.ts', 'tools/layers/src/import-cycles.ts',
    ];
    expect(files).toEqual(expect.arrayContaining(read));
    expect(files.filter((file) => NOT_SOURCE.test(file))).toEqual([]);
  });
});

describe('findImportCycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => writeFileSync(join(dir, file), text);

  it('finds a loop closed by a type import, and one by a test, each as one readable line', async () => {
    write('a.ts', "import { b } from './b.ts';\nexport interface A { readonly n: number }\nexport const a = b;\n");
    write('b.ts', "import type { A } from './a.ts';\nexport const b: A | number = 1;\n");
    write('c.ts', "export const c = 1;\n");
    write('c.test.ts', "import { c } from './c.ts';\nexport const seen = c;\n");
    write('d.ts', "import { seen } from './c.test.ts';\nimport { e } from './e.ts';\nexport const d = seen + e;\n");
    write('e.ts', "import { d } from './d.ts';\nexport const e = () => d;\n");
    write('leaf.ts', "import { a } from './a.ts';\nexport const leaf = a;\n");
    const { cycles } = await findImportCycles(dir, ['.'], NOT_SOURCE);
    expect(cycles.map(describeCycle)).toEqual(['a.ts → b.ts → a.ts', 'd.ts → e.ts → d.ts']);
    expect(unexplainedCycles(cycles, [{ why: 'test', files: ['a.ts', 'b.ts'] }]).map(describeCycle)).toEqual(['d.ts → e.ts → d.ts']);
  });
});
