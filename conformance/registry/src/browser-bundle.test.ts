// `npm i @mcp-resilience/browser @modelcontextprotocol/sdk` (as its README says) in a fresh project
// from the registry the release was rehearsed on, its README's bundler example bundled there with
// esbuild as a user's build does, and the page run in Chromium on its own origin against mcp-chaos.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { servePage, type PageServer } from '../../../packages/browser/src/test-support/harness.ts';
import { npmProject, type NpmProject } from '../../packaging/src/npm-project.ts';
import { launchChromium, type LaunchedChromium } from '@mcp-resilience/chromium';
import { poolServer, type PoolServer } from './chaos-pool.ts';
import { projectNpmrc } from './project-npmrc.ts';
import './provided-context.ts';

const registry = inject('registry');
const version = inject('released')[0]!.newVersion;
const README = readFileSync(new URL('../../../packages/browser/README.md', import.meta.url), 'utf8');
const EXAMPLE_URL = 'https://mcp.example.com/mcp';
const install = /```sh\n(npm i @mcp-resilience\/browser[^\n]*)\n```/.exec(README)?.[1];
const example = /```ts\n([\s\S]*?)```/.exec(README)?.[1];

let project: NpmProject;
let chaos: PoolServer;
let site: PageServer;
let browser: LaunchedChromium;
let metafile: Metafile;

beforeAll(async () => {
  if (install === undefined || !example?.includes(EXAMPLE_URL)) throw new Error("the browser README's install line or bundler example is missing");
  project = await npmProject({ name: 'my-page', version: '1.0.0', private: true, type: 'module' }, projectNpmrc(registry), install.split(' ').slice(2));
  chaos = await poolServer(inject('chaosControl'));
  writeFileSync(join(project.dir, 'app.ts'), example.replace(EXAMPLE_URL, chaos.url));
  // What `npx esbuild app.ts --bundle --format=esm --platform=browser --outfile=app.js` does in the project.
  const bundled = await build({
    entryPoints: [join(project.dir, 'app.ts')], absWorkingDir: project.dir, bundle: true, format: 'esm', platform: 'browser',
    write: false, metafile: true, logLevel: 'silent',
  });
  metafile = bundled.metafile;
  site = await servePage(bundled.outputFiles[0]!.text);
  browser = await launchChromium();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await chaos?.stop();
  project?.remove();
});

describe('@mcp-resilience/browser from the registry, bundled with esbuild', () => {
  it('comes from the registry with client and core, the SDK from npm', () => {
    const resolved = (path: string) => project.lock.packages[`node_modules/${path}`]?.resolved ?? '';
    for (const name of ['browser', 'client', 'core']) expect(resolved(`@mcp-resilience/${name}`)).toBe(`${registry}@mcp-resilience/${name}/-/${name}-${version}.tgz`);
    expect(resolved('@modelcontextprotocol/sdk')).toMatch(/^https:\/\/registry\.npmjs\.org\//);
  });

  it("bundles the project's installed packages and nothing from elsewhere", () => {
    const inputs = Object.keys(metafile.inputs).map((input) => relative(project.dir, join(project.dir, input)));
    expect(inputs.filter((input) => input !== 'app.ts' && !input.startsWith('node_modules/'))).toEqual([]);
    expect(inputs).toContain('node_modules/@mcp-resilience/browser/dist/index.js');
    expect(inputs).toContain('node_modules/@mcp-resilience/client/dist/index.js');
  });

  it("runs the README's example in Chromium, cross-origin: the tool answers", async () => {
    const page = await browser.context.newPage();
    try {
      const logged = new Promise<unknown>((resolve, reject) => {
        page.on('console', (message) => void (message.type() === 'log' && message.args()[0]!.jsonValue().then(resolve, reject)));
        page.on('pageerror', reject);
      });
      await page.goto(`${site.origin}/`);
      expect(await logged).toEqual([{ type: 'text', text: 'hi' }]);
    } finally {
      await page.close();
    }
  });
});
