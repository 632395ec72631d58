// An agent framework's recipe as docs/frameworks.md writes it (the lines a user writes): the block
// under `<!-- recipe: NAME -->` (or `NAME plain` / `NAME engine`); plain drops the lines that end in
// `// engine`. No side effects: page-recipe.mjs imports it in each scenario's process, and the
// scoreboard to bundle each recipe once for all of them.
import { readFileSync } from 'node:fs';

const PAGE = new URL('../../../docs/frameworks.md', import.meta.url);

/** The recipe's module text for `mode` (`plain` or `engine`). */
export function recipeText(name, mode) {
  const page = readFileSync(PAGE, 'utf8');
  const block = (tag) => page.split(`<!-- recipe: ${tag} -->\n\`\`\`js\n`)[1]?.split('```\n')[0];
  const own = block(`${name} ${mode}`);
  if (own !== undefined) return own;
  const both = block(name);
  if (both === undefined || !['plain', 'engine'].includes(mode)) throw new Error(`docs/frameworks.md has no ${name} recipe for ${mode}`);
  return mode === 'engine' ? both : both.split('\n').filter((line) => !line.trimEnd().endsWith('// engine')).join('\n');
}

/** Where a run's bundles are (`RECIPE_BUNDLES` names the directory), by recipe and mode. */
export const RECIPE_BUNDLES = 'CHURN_RECIPE_BUNDLES';
export const bundleName = (name, mode) => `${name}-${mode}.mjs`;
