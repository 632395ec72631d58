// The benchmark figures README.md and docs/performance.md quote, generated from one source: the
// committed bench/results/latest.json. Each figure sits between markers in its doc,
//
//   <!-- bench:NAME -->…<!-- /bench -->
//
// on lines of their own (a table, a paragraph) or inline (a figure in a sentence or a table cell).
// `pnpm bench:docs` (and a full `pnpm bench`, after it writes latest.json) rewrites what is between
// them; docs.test.ts fails when a doc says something else than the committed file.
// A block whose figures the committed file lacks (a key added after its run) is left empty, so
// that no doc quotes a figure no committed run measured.
import { readFileSync, writeFileSync } from 'node:fs';
import { COMMITTED_RESULTS, ROOT, type CommittedResults } from './committed-results.ts';
import type { DocBlock } from './doc-block.ts';
import { PERFORMANCE_BLOCKS } from './performance-blocks.ts';
import { README_BLOCKS } from './readme-blocks.ts';

/**
 * Every generated stretch of README.md and docs/performance.md.
 *
 * @example
 * BLOCKS.filter((b) => b.doc === 'README.md').length // README_BLOCKS.length
 */
export const BLOCKS: readonly DocBlock[] = [...PERFORMANCE_BLOCKS, ...README_BLOCKS];

/** The docs the blocks are in, relative to the repository's root. */
export const DOCS = [...new Set(BLOCKS.map((b) => b.doc))];

const MARKER = /<!-- bench:([a-z0-9-]+) -->([\s\S]*?)<!-- \/bench -->/g;

/** What goes between a block's markers for these results: empty when the results lack its figures. */
export function contentOf(block: DocBlock, results: CommittedResults): string {
  const text = block.render(results);
  if (block.inline) {
    if (text?.includes('\n')) throw new Error(`bench:${block.name} is inline, and rendered more than one line`);
    return text ?? '';
  }
  return text === undefined ? '\n' : `\n${text}\n`;
}

/**
 * The doc with every block rewritten from the results.
 *
 * @example
 * renderDoc('a <!-- bench:readme-memory -->?<!-- /bench --> b', 'README.md', results); // 'a <!-- bench:readme-memory -->heap −0.21 MB after GC<!-- /bench --> b'
 */
export function renderDoc(text: string, doc: string, results: CommittedResults): string {
  return text.replace(MARKER, (whole, name: string) => {
    const block = BLOCKS.find((b) => b.name === name && b.doc === doc);
    if (block === undefined) throw new Error(`${doc}: <!-- bench:${name} --> is no block of ${doc} (bench/src/docs.ts)`);
    return `<!-- bench:${name} -->${contentOf(block, results)}<!-- /bench -->`;
  });
}

/**
 * Where a doc says something else than the results: one sentence per block, naming the block, what
 * it quotes, the doc's text and the results' (the first line that differs). Empty when they agree.
 */
export function docDifferences(text: string, doc: string, results: CommittedResults, source = COMMITTED_RESULTS): string[] {
  const found = new Map<string, string[]>();
  for (const [, name, content] of text.matchAll(MARKER)) found.set(name!, [...(found.get(name!) ?? []), content!]);
  const problems: string[] = [];
  for (const name of found.keys()) {
    if (!BLOCKS.some((b) => b.name === name && b.doc === doc)) problems.push(`${doc}: <!-- bench:${name} --> is no block of ${doc} (bench/src/docs.ts)`);
  }
  for (const block of BLOCKS.filter((b) => b.doc === doc)) {
    const contents = found.get(block.name) ?? [];
    if (contents.length !== 1) {
      problems.push(`${doc}: bench:${block.name} (${block.quotes}) appears ${contents.length} times, not once`);
      continue;
    }
    const want = contentOf(block, results);
    if (contents[0] === want) continue;
    const have = contents[0]!.split('\n');
    const wanted = want.split('\n');
    const at = Math.max(0, have.findIndex((line, i) => line !== wanted[i]));
    const line = (lines: string[]) => (at < lines.length ? lines[at]!.trim() || '(an empty line)' : '(nothing)');
    problems.push(`${doc}: bench:${block.name} (${block.quotes}) says "${line(have)}", the committed ${source} gives "${want.trim() === '' ? `nothing (its run has no such figures)` : line(wanted)}"`);
  }
  return problems;
}

/**
 * Rewrites every doc's blocks from the results; answers the docs it changed.
 *
 * @example
 * writeDocs(readCommittedResults()); // ['README.md'] after a full run moved a README figure
 */
export function writeDocs(results: CommittedResults, root = ROOT): string[] {
  const changed: string[] = [];
  for (const doc of DOCS) {
    const path = `${root}${doc}`;
    const before = readFileSync(path, 'utf8');
    const after = renderDoc(before, doc, results);
    if (after !== before) {
      writeFileSync(path, after);
      changed.push(doc);
    }
  }
  return changed;
}
