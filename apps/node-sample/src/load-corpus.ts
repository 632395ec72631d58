import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScenarioSource } from '@mcp-resilience/scenarios';

/** conformance/scenarios, from src/ or dist/ alike. */
export const SCENARIOS_DIR = fileURLToPath(new URL('../../../conformance/scenarios/', import.meta.url));

/**
 * Every file of a scenarios directory but its README, as the runner takes them: the runner
 * refuses what is not a scenario (a stray `notes.txt` fails the run, it is never skipped).
 *
 * @example
 * const report = await runCorpus(loadCorpus(), host);
 */
export function loadCorpus(dir = SCENARIOS_DIR): ScenarioSource[] {
  return readdirSync(dir).filter((file) => file !== 'README.md').map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}
