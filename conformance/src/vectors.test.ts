import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadVectors } from './load-vectors.ts';
import { AREAS, checkVectorFile, parseVectorFile, VectorError } from './run-vector.ts';

const loaded = loadVectors();
const MIN_CASES = 120;

for (const { path, json } of loaded) {
  describe(path, () => {
    for (const result of checkVectorFile(json)) {
      it(result.name, () => {
        expect(result.actual).toEqual(result.expected);
        expect(result.ok).toBe(true);
      });
    }
  });
}

describe('the vector corpus', () => {
  const files = loaded.map(({ path, json }) => ({ path, file: parseVectorFile(json) }));

  it('has at least one file for every area', () => {
    const areas = new Set(files.map(({ file }) => file.area));
    expect(AREAS.filter((area) => !areas.has(area))).toEqual([]);
  });

  it(`has at least ${MIN_CASES} cases`, () => {
    const total = files.reduce((sum, { file }) => sum + file.cases.length, 0);
    expect(total).toBeGreaterThanOrEqual(MIN_CASES);
  });

  it('keeps each file at <area>/<revision>.json', () => {
    for (const { path, file } of files) expect(path).toBe(`${file.area}/${file.revision}.json`);
  });
});

describe('checkVectorFile', () => {
  const valid = {
    area: 'revisions', revision: 'any', description: 'one case',
    cases: [{ name: 'modern', input: { revision: '2026-07-28' }, expect: {} }],
  };

  it('runs a well-formed file and reports a mismatch as a failed case', () => {
    const [result] = checkVectorFile(valid);
    expect(result).toMatchObject({ name: 'modern', ok: false, expected: {} });
  });

  it('rejects a file naming an unknown area', () => {
    expect(() => checkVectorFile({ ...valid, area: 'teleport' })).toThrow(/unknown area "teleport"/);
  });

  it.each([
    ['not an object', []],
    ['no cases', { ...valid, cases: [] }],
    ['a misspelt field', { ...valid, case: valid.cases }],
    ['a case without input', { ...valid, cases: [{ name: 'x', expect: {} }] }],
    ['a repeated case name', { ...valid, cases: [valid.cases[0], valid.cases[0]] }],
    ['a revision group on an ungrouped area', { ...valid, revision: '2025-11-25' }],
    ['a case in the wrong revision file', {
      area: 'classify', revision: '2025-11-25', description: '',
      cases: [{ name: 'x', input: { kind: 'timeout', sessionIdSent: false, revision: '2026-07-28' }, expect: {} }],
    }],
    ['an input the area cannot map', {
      area: 'backoff', revision: 'any', description: '', cases: [{ name: 'x', input: { attempt: 0, random: 0, backoff: { jitter: 'wild' } }, expect: {} }],
    }],
  ])('rejects a malformed file: %s', (_, file) => {
    expect(() => checkVectorFile(file)).toThrow(VectorError);
  });
});

describe('the runner', () => {
  const NEUTRAL = ['run-vector.ts', 'check-decisions.ts', 'check-sessions.ts', 'check-tasks.ts', 'json-input.ts', 'deep-equal.ts'];

  it.each(NEUTRAL)('%s stays runtime-neutral: imports only core and its siblings, no Node globals', (name) => {
    const source = readFileSync(new URL(name, import.meta.url), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.filter((spec) => spec !== '@mcp-resilience/core' && !spec?.startsWith('./'))).toEqual([]);
    expect(source).not.toMatch(/\b(process|Buffer|require|__dirname)\b/);
  });
});
