import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.ts';
import * as core from './index.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = (title: string) => readme.split(`\n## ${title}\n`)[1]?.split('\n## ')[0] ?? '';

// The README is the package's reference: what it exports and what each error code means.
describe('README', () => {
  it('names every exported value in its table of exports', () => {
    const table = section('What it exports');
    const missing = Object.keys(core).filter((name) => !table.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('gives every error code a row, in the order of ERROR_CODES', () => {
    const rows = [...section('Errors').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...ERROR_CODES]);
  });
});
