import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The engine's shape, checked: every request it sends reaches the network through wire.ts, and
// each module stays short enough to read alone.
const SRC = fileURLToPath(new URL('.', import.meta.url));
const sources = readdirSync(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
/** The code of a file without its comments (a JSDoc example may well show a fetch). */
const code = (file: string) => readFileSync(`${SRC}${file}`, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

describe('the wire', () => {
  it('is the one module that calls the fetch the engine sends through', () => {
    const callers = sources.filter((file) => /\.fetch\(/.test(code(file)));
    expect(callers).toEqual(['wire.ts']);
  });

  it('is where the global fetch is reached only as the engine\'s default', () => {
    const callers = sources.filter((file) => /(^|[^.\w])fetch\(/m.test(code(file)));
    expect(callers).toEqual(['engine.ts']);
    expect(code('engine.ts')).toMatch(/given \?\? \(\(input, init\) => fetch\(input, init\)\)/);
  });
});

describe('the modules', () => {
  it('are each at most 300 lines (one concept a file, readable alone)', () => {
    const long = sources.map((file) => [file, readFileSync(`${SRC}${file}`, 'utf8').split('\n').length - 1] as const).filter(([, lines]) => lines > 300);
    expect(long).toEqual([]);
  });
});
