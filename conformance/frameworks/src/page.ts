import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** docs/frameworks.md: the page whose recipes the tests run and whose tables they check. */
export const PAGE = fileURLToPath(new URL('../../../docs/frameworks.md', import.meta.url));

/** The marker that ends a line the engine needs: the plain recipe is the same code without those lines. */
export const ENGINE_MARK = '// engine';

/** One recipe of the page: its code as the page writes it, and which way it connects. */
export interface PageRecipe {
  readonly framework: string;
  /** `both`: plain and with the engine from one block (plain drops the `// engine` lines). */
  readonly variant: 'both' | 'plain' | 'engine';
  readonly code: string;
}

/** A page mistake the tests must not guess around. */
export class PageError extends Error {
  readonly code = 'PAGE_MALFORMED';
}

const RECIPE = /<!-- recipe: ([a-z0-9-]+)(?: (plain|engine))? -->\n```js\n([\s\S]*?)```\n/g;

/**
 * Every recipe block of the page: a `<!-- recipe: NAME -->` (or `NAME plain` / `NAME engine`)
 * comment right above a ```js block.
 *
 * @example
 * const recipes = pageRecipes(readFileSync(PAGE, 'utf8'));
 * recipes.find((r) => r.framework === 'ai-sdk')?.code;
 */
export function pageRecipes(page: string): PageRecipe[] {
  return [...page.matchAll(RECIPE)].map((m) => ({ framework: m[1]!, variant: (m[2] ?? 'both') as PageRecipe['variant'], code: m[3]! }));
}

/**
 * The code of a framework's recipe for one way of connecting: the block for it, or the shared
 * block, without the `// engine` lines when plain.
 *
 * @example
 * const code = recipeCode(pageRecipes(page), 'mastra', 'plain');
 */
export function recipeCode(recipes: readonly PageRecipe[], framework: string, mode: 'plain' | 'engine'): string {
  const own = recipes.filter((r) => r.framework === framework && (r.variant === mode || r.variant === 'both'));
  if (own.length !== 1) throw new PageError(`docs/frameworks.md: ${own.length} recipe blocks for ${framework} ${mode} (one expected)`);
  const { code, variant } = own[0]!;
  if (variant === 'both' && !code.includes(ENGINE_MARK)) throw new PageError(`docs/frameworks.md: ${framework}'s recipe has no ${ENGINE_MARK} line`);
  return mode === 'plain' && variant === 'both' ? code.split('\n').filter((line) => !line.trimEnd().endsWith(ENGINE_MARK)).join('\n') : code;
}

/**
 * The text between `<!-- table: NAME -->` and `<!-- /table -->` on the page, or undefined.
 *
 * @example
 * pageTable(readFileSync(PAGE, 'utf8'), 'ai-sdk');
 */
export function pageTable(page: string, name: string): string | undefined {
  const start = `<!-- table: ${name} -->\n`;
  const at = page.indexOf(start);
  if (at < 0) return undefined;
  const end = page.indexOf('<!-- /table -->', at);
  return end < 0 ? undefined : page.slice(at + start.length, end);
}

/** The page as it is on disk. */
export function readPage(): string {
  return readFileSync(PAGE, 'utf8');
}
