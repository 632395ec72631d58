import { readFileSync } from 'node:fs';
import type { Framework } from './frameworks.ts';
import { pageRecipes, readPage, recipeCode } from './page.ts';
import { importRecipe } from './recipe-module.ts';
import { runScenario, SCENARIOS, type Outcome } from './scenarios.ts';
import type { FrameworkRun } from './table.ts';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

/**
 * `name@version` of a package as installed, checked against the exact version package.json pins.
 *
 * @example
 * installedVersion('@ai-sdk/mcp'); // '@ai-sdk/mcp@2.0.99'
 */
export function installedVersion(name: string): string {
  const pinned = manifest.dependencies[name];
  const installed = (JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;
  if (pinned !== installed) throw new Error(`${name}: package.json pins ${pinned}, ${installed} is installed`);
  return `${name}@${installed}`;
}

async function runMode(pool: string, framework: Framework, mode: 'plain' | 'engine'): Promise<Outcome[]> {
  const recipe = await importRecipe(framework.name, mode, recipeCode(pageRecipes(readPage()), framework.name, mode));
  const outcomes: Outcome[] = [];
  for (const scenario of SCENARIOS) {
    const t = Date.now();
    outcomes.push(await runScenario(pool, framework, recipe, scenario));
    if (process.env.FRAMEWORKS_TIMING) console.log(framework.name, mode, scenario.name, Date.now() - t, 'ms');
  }
  return outcomes;
}

/**
 * The framework's recipe from the page, plain and with the engine (the two at once, each on
 * fresh servers of the pool), through every scenario.
 *
 * @example
 * const run = await runFramework(inject('chaosControl'), FRAMEWORKS[0]!);
 */
export async function runFramework(pool: string, framework: Framework): Promise<FrameworkRun> {
  const [plain, engine] = await Promise.all([runMode(pool, framework, 'plain'), runMode(pool, framework, 'engine')]);
  return {
    title: framework.title,
    packages: framework.packages.map(installedVersion),
    rows: SCENARIOS.map((scenario, i) => ({ scenario, plain: plain[i]!, engine: engine[i]! })),
  };
}
