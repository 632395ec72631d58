import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { ScoreboardClient } from './clients.ts';

/** This package's directory: a bundle's imports resolve to its pinned dependencies. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** `clients/recipe-text.mjs`: plain JavaScript, shared with the framework adapters. */
interface RecipeText {
  recipeText(name: string, mode: string): string;
  bundleName(name: string, mode: string): string;
  readonly RECIPE_BUNDLES: string;
}

/** The recipe bundles of one scoreboard run: the environment variable that points the adapters at them, and their removal. */
export interface RecipeBundles {
  readonly env: Readonly<Record<string, string>>;
  remove(): void;
}

/**
 * Bundles each framework client's recipe (docs/frameworks.md as written, plain or with the engine)
 * with its framework into one file, once per run: a scenario's process then loads one file instead
 * of resolving and compiling the framework's thousands of modules, which was most of the
 * scoreboard's CPU. The code that runs is the installed packages' own, built fresh from this run's
 * page and `dist`, so no bundle outlives its run.
 *
 * @example
 * const bundles = await bundleRecipes(CLIENTS);
 * try { await checkClient(client, { env: bundles.env }); } finally { bundles.remove(); }
 */
export async function bundleRecipes(clients: readonly ScoreboardClient[]): Promise<RecipeBundles> {
  const { recipeText, bundleName, RECIPE_BUNDLES } = (await import(new URL('../clients/recipe-text.mjs', import.meta.url).href)) as RecipeText;
  mkdirSync(join(PACKAGE_DIR, '.recipes'), { recursive: true });
  const dir = mkdtempSync(join(PACKAGE_DIR, '.recipes', 'bundles-'));
  try {
    await Promise.all(clients.filter((c) => c.mode).map(async ({ file, mode }) => {
      const name = file.replace(/\.mjs$/, '');
      await build({
        stdin: { contents: recipeText(name, mode!), resolveDir: PACKAGE_DIR, sourcefile: `${name}-${mode}.mjs`, loader: 'js' },
        bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error',
        outfile: join(dir, bundleName(name, mode!)),
        // The CommonJS modules inside still `require` Node's own modules.
        banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      });
    }));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { env: { [RECIPE_BUNDLES]: dir }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
