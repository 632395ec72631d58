import { describe, expect, it } from 'vitest';
import { pageRecipes, pageTable, PageError, recipeCode } from './page.ts';

const page = [
  '<!-- recipe: a -->', '```js', "import x from 'x';", "import e from 'e'; // engine", 'export const open = (url) => x(url, {', '  fetch: e(), // engine', '});', '```', '',
  '<!-- recipe: b plain -->', '```js', 'plain b', '```', '', '<!-- recipe: b engine -->', '```js', 'engine b', '```', '',
  '<!-- table: a -->', '| t |', '<!-- /table -->', '',
].join('\n');

describe('the page', () => {
  it('runs a shared block as written with the engine, and without its // engine lines plain', () => {
    const recipes = pageRecipes(page);
    expect(recipes.map((r) => `${r.framework} ${r.variant}`)).toEqual(['a both', 'b plain', 'b engine']);
    expect(recipeCode(recipes, 'a', 'engine')).toContain('fetch: e(), // engine');
    expect(recipeCode(recipes, 'a', 'plain')).toBe("import x from 'x';\nexport const open = (url) => x(url, {\n});\n");
    expect(recipeCode(recipes, 'b', 'plain')).toBe('plain b\n');
    expect(recipeCode(recipes, 'b', 'engine')).toBe('engine b\n');
  });

  it('refuses a framework with no block, two blocks, or a shared block with no // engine line', () => {
    expect(() => recipeCode(pageRecipes(page), 'c', 'plain')).toThrow(PageError);
    expect(() => recipeCode(pageRecipes(`${page}${page}`), 'a', 'plain')).toThrow(/2 recipe blocks for a plain/);
    expect(() => recipeCode(pageRecipes('<!-- recipe: d -->\n```js\nno engine\n```\n'), 'd', 'plain')).toThrow(/no \/\/ engine line/);
  });

  it('reads a table between its markers', () => {
    expect(pageTable(page, 'a')).toBe('| t |\n');
    expect(pageTable(page, 'z')).toBeUndefined();
  });
});
