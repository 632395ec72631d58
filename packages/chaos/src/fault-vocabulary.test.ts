import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Every source file `file` reaches through relative imports, itself included. */
function reached(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(new URL(file, import.meta.url), 'utf8');
  for (const [, spec] of code.matchAll(/from '(\.\/[^']+)'/g)) reached(spec!, seen);
  return seen;
}

describe('@mcp-resilience/chaos/faults', () => {
  it('reaches no node: module (a runner in Deno, a Worker or a page imports it)', () => {
    const files = reached('./fault-vocabulary.ts');
    expect([...files].sort()).toEqual(['./dialect-responses.ts', './fault-vocabulary.ts', './faults.ts', './pool-options.ts', './task-binding.ts']);
    for (const file of files) {
      const code = readFileSync(new URL(file, import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/from '(node:|[a-z@])/);
    }
  });

  it('is exported as its own entry', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, { default: string }> };
    expect(manifest.exports['./faults']?.default).toBe('./dist/fault-vocabulary.js');
  });
});
