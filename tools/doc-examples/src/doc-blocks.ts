import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The languages of a code block this suite runs (or holds to a marker). */
const CODE = /^(ts|js|typescript|javascript|mjs|tsx|jsx)$/;

/**
 * What the line before a block says of it:
 * - `run`: nothing; the block is a program the test runs with node against mcp-chaos;
 * - `fragment`: `<!-- fragment: why -->`, not a program (the reason is required);
 * - `elsewhere`: `<!-- runs in: path -->` (a test that runs it, in a runtime of its own), or
 *   `<!-- recipe: … -->`, which conformance/frameworks runs.
 */
export type BlockKind =
  | { readonly kind: 'run' }
  | { readonly kind: 'fragment'; readonly why: string }
  | { readonly kind: 'elsewhere'; readonly test: string };

/** One fenced code block of a doc. */
export interface DocBlock {
  readonly doc: string;
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  readonly language: string;
  readonly code: string;
  readonly marker: BlockKind;
  /** A ```text block right after it (blank lines only between): what it prints on stdout. */
  readonly prints?: string;
}

const FRAMEWORKS_TEST = 'conformance/frameworks/src/page.ts';

/**
 * Markers of blocks in pages other suites own (their text is theirs to change), keyed by the doc
 * and the block's first line: the same rule, written here instead of in the page.
 */
export const HELD_ELSEWHERE: Readonly<Record<string, BlockKind>> = {
  'docs/churn-check.md // The churn check\'s workload (docs/churn-check.md) for an MCP client that is connected: list the': { kind: 'elsewhere', test: 'conformance/churn-scoreboard/src/scoreboard.test.ts' },
  'docs/churn-check.md // The official SDK 1.x client with @mcp-resilience/node\'s fetch: node sdk-1x-resilient.mjs URL.': { kind: 'elsewhere', test: 'conformance/churn-scoreboard/src/scoreboard.test.ts' },
  'docs/servers.md // the SDK examples\' line:': { kind: 'fragment', why: 'server side: a line of an Express handler' },
  "docs/servers.md import { sendSessionGone } from '@mcp-resilience/chaos/server-kit';": { kind: 'fragment', why: 'server side: a line of an Express handler' },
  "docs/servers.md import { randomUUID } from 'node:crypto';": { kind: 'fragment', why: 'server side: `buildServer` and `app` are your server\'s' },
  'docs/servers.md createResilientFetch({': { kind: 'fragment', why: 'an option, in the fetch you create' },
};

/**
 * The marker of the line before a fence.
 *
 * @example
 * markerOf('<!-- fragment: server-side -->'); // { kind: 'fragment', why: 'server-side' }
 */
export function markerOf(line: string | undefined): BlockKind {
  const comment = /^<!--\s*(fragment|runs in|recipe):\s*(.*?)\s*-->$/.exec(line?.trim() ?? '');
  if (!comment) return { kind: 'run' };
  const [, what, text = ''] = comment;
  if (what === 'fragment') return { kind: 'fragment', why: text };
  if (what === 'recipe') return { kind: 'elsewhere', test: FRAMEWORKS_TEST };
  return { kind: 'elsewhere', test: text };
}

/**
 * Every fenced code block of a Markdown text whose language is JavaScript or TypeScript.
 *
 * @example
 * docBlocks('README.md', '```js\nconsole.log(1)\n```\n\n```text\n1\n```\n')[0]?.prints; // '1\n'
 */
export function docBlocks(doc: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) break;
    const language = open[1] ?? '';
    if (CODE.test(language)) {
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      let after = end + 1;
      while (after < lines.length && lines[after]!.trim() === '') after++;
      let prints: string | undefined;
      if (lines[after] === '```text') {
        const close = lines.findIndex((l, j) => j > after && l.startsWith('```'));
        prints = `${lines.slice(after + 1, close).join('\n')}\n`;
      }
      const marker = HELD_ELSEWHERE[`${doc} ${lines[i + 1] ?? ''}`] ?? markerOf(lines[before]);
      blocks.push({
        doc, line: i + 1, language, code: `${lines.slice(i + 1, end).join('\n')}\n`, marker,
        ...(prints === undefined ? {} : { prints }),
      });
    }
    i = end;
  }
  return blocks;
}

/** The docs whose examples are held: README.md, each package's README and docs/*.md. */
export function docsOf(root: string): string[] {
  const packages = readdirSync(join(root, 'packages')).map((p) => `packages/${p}/README.md`);
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', ...packages, ...docs].filter((doc) => existsSync(join(root, doc)));
}

/**
 * Every block of every doc.
 *
 * @example
 * allBlocks(ROOT).filter((b) => b.marker.kind === 'run').length; // the examples the test runs
 */
export function allBlocks(root: string): DocBlock[] {
  return docsOf(root).flatMap((doc) => docBlocks(doc, readFileSync(join(root, doc), 'utf8')));
}
