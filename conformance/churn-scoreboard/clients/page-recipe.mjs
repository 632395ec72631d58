// An agent framework's recipe, as docs/frameworks.md writes it (recipe-text.mjs), for the framework
// adapters beside this file: node ADAPTER plain|engine URL.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleName, RECIPE_BUNDLES, recipeText } from './recipe-text.mjs';
import { context } from './workload.mjs';

/** Written inside this package, so the recipe's imports resolve to its pinned dependencies. */
const DIR = fileURLToPath(new URL('../.recipes/', import.meta.url));
/** `plain` or `engine`: the argument before the URL. */
export const mode = process.argv.at(-2);

/**
 * Imports the recipe's module (its `open(url)`), written under a name of its content: scenarios
 * run at once write the same file, each through a rename, so none imports a half-written one.
 * Under the scoreboard, the same recipe bundled into one file (recipe-text.mjs says where).
 */
export async function importRecipe(name) {
  // The scoreboard bundled this recipe, from the same page, once for all of its scenarios.
  const bundles = process.env[RECIPE_BUNDLES];
  if (bundles) return import(pathToFileURL(join(bundles, bundleName(name, mode))).href);
  const code = recipeText(name, mode);
  const file = `${DIR}${name}-${mode}-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`;
  mkdirSync(DIR, { recursive: true });
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, code);
  renameSync(partial, file);
  return import(pathToFileURL(file).href);
}

/** The framework's call, capped at the context's call timeout as an application would (its signal aborted too). */
export function capped(call) {
  const controller = new AbortController();
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer in ${context.callTimeoutMs} ms`));
    }, context.callTimeoutMs);
  });
  return Promise.race([call(controller.signal), timeout]).finally(() => clearTimeout(timer));
}
