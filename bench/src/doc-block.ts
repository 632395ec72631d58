import type { CommittedResults } from './committed-results.ts';

/**
 * One generated stretch of a doc. `render` answers undefined when the committed file lacks its figures.
 *
 * @example
 * const block: DocBlock = { name: 'readme-storm-calls', doc: 'README.md', quotes: 'the calls of a storm', inline: true, render: ({ details }) => `${details.storm.calls} calls` };
 */
export interface DocBlock {
  readonly name: string;
  readonly doc: 'README.md' | 'docs/performance.md';
  /** What it quotes, for a failure message. */
  readonly quotes: string;
  /** Inline: inside a sentence or a table cell, one line. Otherwise lines of their own. */
  readonly inline: boolean;
  readonly render: (c: CommittedResults) => string | undefined;
}
