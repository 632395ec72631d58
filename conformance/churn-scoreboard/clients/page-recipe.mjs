// An agent framework's recipe, as docs/frameworks.md writes it (the lines a user writes), for the
// framework adapters beside this file: node ADAPTER plain|engine URL. The block under
// `<!-- recipe: NAME -->` (or `NAME plain` / `NAME engine`); plain drops the lines that end in `// engine`.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { context } from './workload.mjs';

const PAGE = new URL('../../../docs/frameworks.md', import.meta.url);
/** Written inside this package, so the recipe's imports resolve to its pinned dependencies. */
const DIR = fileURLToPath(new URL('../.recipes/', import.meta.url));
/** `plain` or `engine`: the argument before the URL. */
export const mode = process.argv.at(-2);

function recipeText(name) {
  const page = readFileSync(PAGE, 'utf8');
  const block = (tag) => page.split(`<!-- recipe: ${tag} -->\n\`\`\`js\n`)[1]?.split('```\n')[0];
  const own = block(`${name} ${mode}`);
  if (own !== undefined) return own;
  const both = block(name);
  if (both === undefined || !['plain', 'engine'].includes(mode)) throw new Error(`docs/frameworks.md has no ${name} recipe for ${mode}`);
  return mode === 'engine' ? both : both.split('\n').filter((line) => !line.trimEnd().endsWith('// engine')).join('\n');
}

/**
 * Imports the recipe's module (its `open(url)`), written under a name of its content: scenarios
 * run at once write the same file, each through a rename, so none imports a half-written one.
 */
export async function importRecipe(name) {
  const code = recipeText(name);
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
