import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const pkg = read('package.json');
const jsr = read('deno.json');

// npm serves the built dist, JSR the TypeScript sources: the two manifests must describe one package.
describe('package manifests', () => {
  it('give npm and JSR the same name and version', () => {
    expect(jsr.name).toBe(pkg.name);
    expect(jsr.version).toBe(pkg.version);
  });

  it('export the same entry points, sources for JSR and built files for npm', () => {
    expect(Object.keys(jsr.exports)).toEqual(Object.keys(pkg.exports));
    for (const [entry, source] of Object.entries<string>(jsr.exports)) {
      const built = source.replace('./src/', './dist/').replace(/\.ts$/, '.js');
      expect(pkg.exports[entry].default).toBe(built);
      expect(pkg.exports[entry].types).toBe(built.replace(/\.js$/, '.d.ts'));
    }
  });

  it('lists types first in every npm export condition', () => {
    for (const conditions of Object.values<Record<string, string>>(pkg.exports)) {
      expect(Object.keys(conditions)[0]).toBe('types');
    }
  });
});
