import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { launchChromium, type LaunchedChromium } from '@mcp-resilience/chromium';
import type { BrowserContext, Page } from 'playwright-core';
import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { afterAll, afterEach, beforeAll } from 'vitest';


/** The adapter and the SDK as one ESM file for a page (`window.mcp`). */
export async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./page-entry.ts', import.meta.url))], bundle: true, format: 'esm', platform: 'browser',
    write: false, logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A page origin of its own on 127.0.0.1 (another port than any chaos server's: cross-origin). */
export interface PageServer {
  readonly origin: string;
  close(): Promise<void>;
}

const TYPES: Readonly<Record<string, string>> = { js: 'text/javascript', html: 'text/html' };

/**
 * Serves `files` by path (`/` included); by default `/` is a page that loads `/app.js`, and `/app.js` is `script`.
 */
export async function servePage(script: string, files: Readonly<Record<string, string>> = {}): Promise<PageServer> {
  const served: Record<string, string> = {
    '/': '<!doctype html><title>mcp</title><script type="module" src="/app.js"></script>', '/app.js': script, ...files,
  };
  const server: Server = createServer((request, response) => {
    const body = served[request.url ?? ''];
    if (body === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': TYPES[request.url!.split('.').at(-1)!] ?? 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/**
 * The hooks of a Chromium test file: the test page (`window.mcp`) on its own origin, one Chromium
 * for the file, its pages closed and the network back online after each test.
 */
export function chromiumTestbed(): { readonly context: () => BrowserContext; readonly origin: () => string; open(): Promise<Page> } {
  let site: PageServer | undefined;
  let browser: LaunchedChromium | undefined;
  beforeAll(async () => {
    site = await servePage(await bundlePage());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });
  afterEach(async () => {
    for (const page of browser!.context.pages()) await page.close();
    await browser!.context.setOffline(false);
  });
  return {
    context: () => browser!.context,
    origin: () => site!.origin,
    async open() {
      const page = await browser!.context.newPage();
      await page.goto(`${site!.origin}/`);
      await page.waitForFunction(() => 'mcp' in globalThis);
      return page;
    },
  };
}

/** A chaos server of the pool: its MCP endpoint and its own control API. */
export interface PoolServer {
  readonly url: string;
  readonly control: string;
}

/**
 * The hooks of a test file's mcp-chaos: one process for the file (started once, stopped by PID),
 * a fresh server of its pool for each test (`POST {control}/servers`, options as the pool takes
 * them), stopped after the test.
 */
export function chaosTestbed(): { server(options?: Readonly<Record<string, unknown>>): Promise<PoolServer> } {
  let chaos: ChaosProcess | undefined;
  const started: PoolServer[] = [];
  beforeAll(async () => {
    chaos = await startChaosProcess([]);
  });
  afterEach(async () => {
    for (const server of started.splice(0)) await fetch(server.control, { method: 'DELETE' });
  });
  afterAll(async () => {
    await chaos?.stop();
  });
  return {
    async server(options = {}) {
      const response = await fetch(`${chaos!.control}/servers`, { method: 'POST', body: JSON.stringify(options) });
      if (response.status !== 201) throw new Error(`the chaos pool refused a server: ${response.status} ${await response.text()}`);
      const server = (await response.json()) as PoolServer;
      started.push(server);
      return server;
    },
  };
}

/** What a chaos server's wire log holds. */
export async function wireLog(control: string): Promise<{ httpMethod: string; rpcMethod?: string; status?: number; sessionOrdinal?: number }[]> {
  const state = (await (await fetch(`${control}/state`)).json()) as { log: { httpMethod: string; rpcMethod?: string; status?: number; sessionOrdinal?: number }[] };
  return state.log;
}
