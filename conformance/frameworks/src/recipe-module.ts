import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the page's recipes are written to be imported: inside the package, so its dependencies resolve. */
const DIR = fileURLToPath(new URL('../.recipes/', import.meta.url));

/** What every recipe of the page exports: `open(url)` gives what the framework hands an agent, and `close()`. */
export interface RecipeModule {
  open(url: string): Promise<{ close(): Promise<unknown> } & Record<string, unknown>>;
}

/**
 * Writes the code of a recipe, as the page has it, to a module file and imports it. The file is
 * named by its content, so a changed page is never served from an older import.
 *
 * @example
 * const recipe = await importRecipe('ai-sdk', 'engine', recipeCode(pageRecipes(readPage()), 'ai-sdk', 'engine'));
 * const opened = await recipe.open(url);
 */
export async function importRecipe(framework: string, mode: string, code: string): Promise<RecipeModule> {
  mkdirSync(DIR, { recursive: true });
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 12);
  const file = `${DIR}${framework}-${mode}-${hash}.mjs`;
  writeFileSync(file, code);
  const module = (await import(pathToFileURL(file).href)) as Partial<RecipeModule>;
  if (typeof module.open !== 'function') throw new TypeError(`the ${framework} recipe exports no open(url)`);
  return module as RecipeModule;
}
