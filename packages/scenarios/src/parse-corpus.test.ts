import { describe, expect, it } from 'vitest';
import { isScenarioError } from './errors.ts';
import { parseCorpus, parseScenarioFile } from './parse-corpus.ts';

const minimal = {
  name: 'minimal', description: 'one call', steps: [{ call: { tool: 'echo', arguments: { text: 'hi' } }, expect: 'ok' }], expect: { trace: [] },
};

describe('parseCorpus', () => {
  it('returns every file in name order, each unmappable one with its error, never skipping it', () => {
    const entries = parseCorpus([
      { file: 'minimal.json', text: JSON.stringify(minimal) },
      { file: 'c-notes.txt', text: 'scenario ideas' },
      { file: 'a-not-json.json', text: 'nope' },
      { file: 'b-misnamed.json', json: minimal },
      { file: 'minimal.json', json: minimal },
    ]);
    expect(entries.map((e) => [e.file, e.error?.message ?? 'ok'])).toEqual([
      ['a-not-json.json', expect.stringMatching(/^a-not-json\.json: not JSON: /)],
      ['b-misnamed.json', 'b-misnamed.json: name "minimal" must match the file name "b-misnamed"'],
      ['c-notes.txt', 'c-notes.txt: not a scenario file (*.json)'],
      ['minimal.json', 'ok'],
      ['minimal.json', 'minimal.json: given twice'],
    ]);
    expect(entries.every((e) => e.error === undefined || isScenarioError(e.error, 'SCENARIO_INVALID'))).toBe(true);
  });

  it('takes text or parsed JSON alike, and a path as its file name', () => {
    expect(parseScenarioFile({ file: 'conformance/scenarios/minimal.json', json: minimal }).name).toBe('minimal');
    expect(parseScenarioFile({ file: 'minimal.json', text: JSON.stringify(minimal) })).toEqual(parseScenarioFile({ file: 'minimal.json', json: minimal }));
  });
});
