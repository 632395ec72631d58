import { readFileSync } from 'node:fs';
import type { Framework } from './frameworks.ts';
import { pageRecipes, readPage, recipeCode } from './page.ts';
import { importRecipe, type RecipeModule } from './recipe-module.ts';
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

async function runMode(pool: string, framework: Framework, mode: 'plain' | 'engine', recipe: RecipeModule): Promise<Outcome[]> {
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
  const recipes = pageRecipes(readPage());
  const codes = { plain: recipeCode(recipes, framework.name, 'plain'), engine: recipeCode(recipes, framework.name, 'engine') };
  const loaded = framework.load
    ? await framework.load(codes)
    : { plain: await importRecipe(framework.name, 'plain', codes.plain), engine: await importRecipe(framework.name, 'engine', codes.engine), dispose: async () => {} };
  let plain: Outcome[];
  let engine: Outcome[];
  let notes: Record<string, string | undefined> = {};
  try {
    [plain, engine] = await Promise.all([runMode(pool, framework, 'plain', loaded.plain), runMode(pool, framework, 'engine', loaded.engine)]);
    notes = (await loaded.notes?.()) ?? {};
  } finally {
    await loaded.dispose();
  }
  return {
    title: framework.title,
    packages: framework.packages.map(installedVersion),
    rows: SCENARIOS.map((scenario, i) => ({ scenario, plain: plain[i]!, engine: engine[i]! })),
    notes,
  };
}
