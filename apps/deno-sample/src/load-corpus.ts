import type { ScenarioSource } from '@mcp-resilience/scenarios';

/** conformance/scenarios of this checkout. */
export const SCENARIOS_DIR = `${import.meta.dirname}/../../../conformance/scenarios`;

/**
 * Every file of a scenarios directory but its README, by name, as the runner takes them: the
 * runner refuses what is not a scenario (a stray `notes.txt` fails the run, it is never
 * skipped). Needs `--allow-read` of that directory.
 *
 * @example
 * const report = await runCorpus(await loadCorpus(), host);
 */
export async function loadCorpus(dir: string = SCENARIOS_DIR): Promise<ScenarioSource[]> {
  const files: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.isFile && entry.name !== 'README.md') files.push(entry.name);
  return Promise.all(files.sort().map(async (file) => ({ file, text: await Deno.readTextFile(`${dir}/${file}`) })));
}
