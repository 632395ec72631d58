import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The tsconfig (lib ES2022, types []) already rejects timers, fetch, process, window and Deno.
// What ES2022 itself offers and core must still not use: the clock, randomness, code from strings.
const FORBIDDEN = [
  /\bDate\.now\s*\(/, /\bnew Date\s*\(\s*\)/, /\bMath\.random\s*\(/, /\bperformance\b/,
  /\beval\s*\(/, /\bnew Function\b/, /\bglobalThis\b/, /\bsetTimeout\b/, /\bconsole\./,
];

const dir = import.meta.dirname;
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

describe('core purity', () => {
  it('has sources to check', () => {
    expect(sources.length).toBeGreaterThan(10);
  });

  it.each(sources)('%s reads no clock, no randomness and no globals', (file) => {
    const code = readFileSync(join(dir, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    for (const pattern of FORBIDDEN) expect(code, `${file} matches ${pattern}`).not.toMatch(pattern);
  });

  it('compiles against ES2022 alone, with no runtime types', () => {
    const tsconfig = JSON.parse(readFileSync(join(dir, '..', 'tsconfig.json'), 'utf8'));
    expect(tsconfig.compilerOptions.lib).toEqual(['ES2022']);
    expect(tsconfig.compilerOptions.types).toEqual([]);
  });
});
