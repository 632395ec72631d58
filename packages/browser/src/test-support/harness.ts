import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

export async function servePage(script: string): Promise<PageServer> {
  const server: Server = createServer((request, response) => {
    if (request.url === '/app.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (request.url === '/favicon.ico') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>mcp</title><script type="module" src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Real Chromium (Debian's), in a profile of its own that is removed on close. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-browser-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: ARGS });
  return { context, close: async () => (await context.close(), await rm(dir, { recursive: true, force: true })) };
}

/** What a chaos process's wire log holds. */
export async function wireLog(control: string): Promise<{ httpMethod: string; rpcMethod?: string; status?: number; sessionOrdinal?: number }[]> {
  const state = (await (await fetch(`${control}/state`)).json()) as { log: { httpMethod: string; rpcMethod?: string; status?: number; sessionOrdinal?: number }[] };
  return state.log;
}
