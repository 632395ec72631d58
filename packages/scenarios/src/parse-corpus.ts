import { isScenarioError, ScenarioError } from './errors.ts';
import { parseScenario } from './parse-scenario.ts';
import type { Scenario } from './scenario.ts';

/** One scenario file as a runtime read it: its text, or the JSON a bundler already parsed. */
export type ScenarioSource =
  | { readonly file: string; readonly text: string; readonly json?: undefined }
  | { readonly file: string; readonly json: unknown; readonly text?: undefined };

/** One file of a corpus: the scenario, or why it cannot be mapped. */
export type CorpusEntry =
  | { readonly file: string; readonly scenario: Scenario; readonly error?: undefined }
  | { readonly file: string; readonly scenario?: undefined; readonly error: ScenarioError };

const invalid = (message: string) => new ScenarioError('SCENARIO_INVALID', message);

/**
 * Reads one scenario file: `*.json`, JSON, a scenario, and named as its file is
 * (`evict-amdahl.json` holds `"name": "evict-amdahl"`). Throws `ScenarioError` otherwise.
 *
 * @example
 * parseScenarioFile({ file: 'evict-amdahl.json', text: await (await fetch(url)).text() });
 */
export function parseScenarioFile(source: ScenarioSource): Scenario {
  const file = source.file.replace(/^.*[\\/]/, '');
  if (!file.endsWith('.json')) throw invalid(`${file}: not a scenario file (*.json)`);
  let json = source.json;
  if (source.text !== undefined) {
    try {
      json = JSON.parse(source.text);
    } catch (error) {
      throw invalid(`${file}: not JSON: ${(error as Error).message}`);
    }
  }
  const scenario = parseScenario(json, file);
  const expected = file.slice(0, -'.json'.length);
  if (scenario.name !== expected) throw invalid(`${file}: name "${scenario.name}" must match the file name "${expected}"`);
  return scenario;
}

/**
 * Reads a corpus, ordered by file name. A file that cannot be mapped comes back with its error
 * (a run counts it as a failed scenario, never skips it); so does a file given twice. Pass
 * every file of the directory but its README.
 *
 * @example
 * const corpus = parseCorpus([{ file: 'a.json', text: '{…}' }, { file: 'notes.txt', text: '…' }]);
 * corpus[1].error?.message; // 'notes.txt: not a scenario file (*.json)'
 */
export function parseCorpus(sources: readonly ScenarioSource[]): CorpusEntry[] {
  const seen = new Set<string>();
  return [...sources].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)).map((source): CorpusEntry => {
    const { file } = source;
    try {
      if (seen.has(file)) throw invalid(`${file}: given twice`);
      seen.add(file);
      return { file, scenario: parseScenarioFile(source) };
    } catch (error) {
      if (isScenarioError(error)) return { file, error };
      throw error;
    }
  });
}
