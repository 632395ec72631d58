import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseScenario, ScenarioError, type Scenario } from './scenario.ts';

/** conformance/scenarios, from src/ or dist/ alike. */
export const SCENARIOS_DIR = fileURLToPath(new URL('../../../conformance/scenarios/', import.meta.url));

/** One scenario file: the scenario, or why it cannot be mapped. */
export type ScenarioFile =
  | { readonly file: string; readonly scenario: Scenario; readonly error?: undefined }
  | { readonly file: string; readonly scenario?: undefined; readonly error: ScenarioError };

/** Reads and checks one scenario file; a file that is not JSON or not a scenario is a {@link ScenarioError}. */
export function loadScenarioFile(path: string, file = path): Scenario {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ScenarioError(`${file}: not JSON: ${(error as Error).message}`);
  }
  const scenario = parseScenario(json, file);
  const expected = file.replace(/^.*\//, '').replace(/\.json$/, '');
  if (scenario.name !== expected) throw new ScenarioError(`${file}: name "${scenario.name}" must match the file name "${expected}"`);
  return scenario;
}

/**
 * Every `*.json` in the scenarios directory, by file name. A file that cannot be mapped comes
 * back with its error (so the runner fails on it rather than skipping it); any other file in the
 * directory but the README is an error too.
 */
export function loadScenarios(dir = SCENARIOS_DIR): ScenarioFile[] {
  return readdirSync(dir).filter((f) => f !== 'README.md').sort().map((file): ScenarioFile => {
    try {
      if (!file.endsWith('.json')) throw new ScenarioError(`${file}: not a scenario file (*.json)`);
      return { file, scenario: loadScenarioFile(`${dir}/${file}`, file) };
    } catch (error) {
      if (error instanceof ScenarioError) return { file, error };
      throw error;
    }
  });
}
