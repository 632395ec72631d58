import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChaosServer } from '@mcp-resilience/chaos';
import { describe, expect, it } from 'vitest';
import { allBlocks, docBlocks, HELD_ELSEWHERE, markerOf, type DocBlock } from './doc-blocks.ts';
import { DOC_URL, programOf, runExample } from './run-example.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLES_DIR = fileURLToPath(new URL('../.examples/', import.meta.url));
const blocks = allBlocks(ROOT);
const where = (b: DocBlock) => `${b.doc}:${b.line}`;

describe('reading the docs', () => {
  it('finds a block, its marker and what it prints', () => {
    const [first, second] = docBlocks('x.md', '<!-- fragment: server-side -->\n```js\na()\n```\n\n```ts\nb()\n```\n\n```text\nhi\n```\n');
    expect(first).toMatchObject({ line: 2, code: 'a()\n', marker: { kind: 'fragment', why: 'server-side' } });
    expect(first?.prints).toBeUndefined();
    expect(second).toMatchObject({ line: 6, marker: { kind: 'run' }, prints: 'hi\n' });
    expect(markerOf('<!-- runs in: packages/x/src/a.test.ts -->')).toEqual({ kind: 'elsewhere', test: 'packages/x/src/a.test.ts' });
    expect(markerOf('<!-- recipe: mastra -->')).toEqual({ kind: 'elsewhere', test: 'conformance/frameworks/src/page.ts' });
  });

  it('strips types from TypeScript and puts the server in place of the docs URL', () => {
    const program = programOf({ doc: 'x.md', line: 1, language: 'ts', marker: { kind: 'run' }, code: `const u: string = '${DOC_URL}';\n` }, 'http://127.0.0.1:9/mcp');
    expect(program.trim()).toBe("const u = 'http://127.0.0.1:9/mcp';");
  });

  it('tells a block that throws, one that never exits and what one prints', async () => {
    const block = (code: string): DocBlock => ({ doc: 'x.md', line: 1, language: 'js', marker: { kind: 'run' }, code });
    const thrown = await runExample(block("throw new Error('no');\n"), DOC_URL, EXAMPLES_DIR);
    expect(thrown).toMatchObject({ hung: false });
    expect(thrown.status).not.toBe(0);
    expect(thrown.stderr).toContain('Error: no');
    expect(await runExample(block('setInterval(() => {}, 1000);\n'), DOC_URL, EXAMPLES_DIR, 1_000)).toMatchObject({ hung: true });
    expect(await runExample(block('console.log(process.argv[2]);\n'), 'http://127.0.0.1:9/mcp', EXAMPLES_DIR)).toMatchObject({ status: 0, stdout: 'http://127.0.0.1:9/mcp\n' });
  });

  it('reads every doc: README.md, the package READMEs, docs/*.md', () => {
    const docs = new Set(blocks.map((b) => b.doc));
    for (const doc of ['README.md', 'packages/node/README.md', 'packages/client/README.md', 'docs/frameworks.md', 'docs/troubleshooting.md']) expect(docs).toContain(doc);
  });
});

describe('a block that is not run here says why', () => {
  it('each marker kept here for a page of another suite still names a block of it', () => {
    const keys = new Set(blocks.map((b) => `${b.doc} ${b.code.split('\n')[0]}`));
    expect(Object.keys(HELD_ELSEWHERE).filter((key) => !keys.has(key))).toEqual([]);
  });
  const held = blocks.filter((b) => b.marker.kind !== 'run');
  it.each(held.map((b) => [where(b), b] as const))('%s', (_, block) => {
    if (block.marker.kind === 'fragment') expect(block.marker.why, 'a fragment names its reason').toMatch(/\w{3}/);
    if (block.marker.kind === 'elsewhere') {
      const test = join(ROOT, block.marker.test);
      expect(existsSync(test), `${block.marker.test} exists`).toBe(true);
      expect(readFileSync(test, 'utf8'), `${block.marker.test} reads ${block.doc}`).toContain(basename(block.doc));
    }
  });
});

describe('every runnable example, as written, against mcp-chaos', () => {
  const runnable = blocks.filter((b) => b.marker.kind === 'run');
  it('there are some', () => expect(runnable.length).toBeGreaterThan(8));
  it.each(runnable.map((b) => [where(b), b] as const))('%s runs, exits 0 and prints what the doc says', async (_, block) => {
    const chaos = await startChaosServer({});
    try {
      const run = await runExample(block, chaos.url, EXAMPLES_DIR);
      const told = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      expect(run.hung, `it never exited (a client not closed?)\n${told}`).toBe(false);
      expect(run.status, `it failed\n${told}`).toBe(0);
      if (block.prints !== undefined) expect(run.stdout).toBe(block.prints);
    } finally {
      await chaos.stop();
    }
  });
});
