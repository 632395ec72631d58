import { describe, expect, it } from 'vitest';
import { lineCount, longSourceFiles, MAX_SOURCE_LINES } from './long-files.ts';
import { expandFolders } from './folders.ts';
import { NOT_SOURCE, REPOSITORY_ROOT } from './repository.ts';

/** Every package, sample, conformance suite, the benchmarks, the proof and the tools: their sources, scripts and configurations. */
const HELD = ['packages/*', 'apps/*', 'conformance', 'bench', 'proof', 'tools'];

describe(`source files (tests, test-support, fixtures and declarations aside)`, () => {
  it(`are each at most ${MAX_SOURCE_LINES} lines, in every package`, () => {
    const long = longSourceFiles(REPOSITORY_ROOT, expandFolders(REPOSITORY_ROOT, HELD), NOT_SOURCE);
    expect(long.map(({ file, lines }) => `${file}: ${lines} lines`)).toEqual([]);
  });
});

describe('lineCount', () => {
  it('counts a last line with or without its newline', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\n\n')]).toEqual([0, 1, 1, 2, 2]);
  });
});
