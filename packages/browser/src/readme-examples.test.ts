import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type LaunchedChromium } from '@mcp-resilience/chromium';
import { chaosTestbed, servePage, type PageServer } from './test-support/harness.ts';

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const EXAMPLE_URL = 'https://mcp.example.com/mcp';

/** The README's first block in that language, as written. */
function example(language: 'ts' | 'html'): string {
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(README)?.[1];
  if (!block?.includes(EXAMPLE_URL)) throw new Error(`README.md has no \`\`\`${language} example that connects to ${EXAMPLE_URL}`);
  return block;
}

/** esbuild, as a bundler or a CDN would: the package itself as an application gets it (its built files). */
async function bundle(contents: string, loader: 'ts' | 'js'): Promise<string> {
  const result = await build({
    stdin: { contents, loader, resolveDir: PACKAGE }, bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent',
    alias: { '@mcp-resilience/browser': `${PACKAGE}dist/index.js` },
  });
  return result.outputFiles[0]!.text;
}

/** Opens the page and resolves to the first thing it logs with console.log (an error on the page fails it). */
async function firstLog(page: Page, origin: string): Promise<unknown> {
  const logged = new Promise<unknown>((resolve, reject) => {
    page.on('console', (message) => void (message.type() === 'log' && message.args()[0]!.jsonValue().then(resolve, reject)));
    page.on('pageerror', reject);
  });
  await page.goto(`${origin}/`);
  return logged;
}

const pool = chaosTestbed();
let chromium: LaunchedChromium;
const sites: PageServer[] = [];
beforeAll(async () => {
  chromium = await launchChromium();
});
afterAll(async () => {
  await chromium?.close();
  for (const site of sites) await site.close();
});

describe('the README examples, as written, in Chromium against mcp-chaos', () => {
  it('the bundler example calls a tool', async () => {
    const chaos = await pool.server();
    const site = await servePage(await bundle(example('ts').replace(EXAMPLE_URL, chaos.url), 'ts'));
    sites.push(site);
    expect(await firstLog(await chromium.context.newPage(), site.origin)).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('the <script type="module"> example, with the bundle the package ships and the SDK from the CDN, lists the tools', async () => {
    const chaos = await pool.server();
    const html = example('html').replace(EXAMPLE_URL, chaos.url);
    const site = await servePage('', { '/': html, '/vendor/mcp-resilience-browser.js': readFileSync(`${PACKAGE}dist/mcp-resilience-browser.js`, 'utf8') });
    sites.push(site);
    const cdn = /^"@modelcontextprotocol\/sdk\/": "(https:\/\/esm\.sh\/@modelcontextprotocol\/sdk@[^/]+\/)"/m.exec(html.replace(/^\s+/gm, ''))?.[1];
    expect(cdn).toBeDefined();
    const page = await chromium.context.newPage();
    // A stand-in for esm.sh (no network here): each module of the SDK the page asks for, bundled on its own, with CORS.
    await page.route(`${cdn}**`, async (route) => {
      const module = new URL(route.request().url()).pathname.replace(/^\/@modelcontextprotocol\/sdk@[^/]+\//, '');
      const body = await bundle(`export * from '@modelcontextprotocol/sdk/${module}';`, 'js');
      await route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' }, body });
    });
    const listed = (await firstLog(page, site.origin)) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('echo');
  });
});
