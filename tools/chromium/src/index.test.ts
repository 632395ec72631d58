import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, type LaunchedChromium } from './index.ts';

// The browser every Chromium test of the project runs, from npm alone: it launches, it is the
// pinned build (or $CHROMIUM), and it enforces CORS, which the browser adapter's tests rely on.

const servers: Server[] = [];
async function serve(headers: Record<string, string>, body: string): Promise<string> {
  const server = createServer((_, response) => response.writeHead(200, headers).end(body));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
}

let browser: LaunchedChromium;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

it('runs a page, as the pinned build unless $CHROMIUM names another', async () => {
  const page = await browser.context.newPage();
  await page.goto(await serve({ 'content-type': 'text/html' }, '<title>here</title>'));
  expect(await page.title()).toBe('here');
  const agent = await page.evaluate(() => navigator.userAgent);
  if (!process.env.CHROMIUM) expect(agent).toMatch(/HeadlessChrome\/153\./);
});

it('enforces CORS between two 127.0.0.1 origins', async () => {
  const page = await browser.context.newPage();
  await page.goto(await serve({ 'content-type': 'text/html' }, '<title>page</title>'));
  const closed = await serve({ 'content-type': 'text/plain' }, 'secret');
  const open = await serve({ 'content-type': 'text/plain', 'access-control-allow-origin': '*' }, 'shared');
  const read = (url: string) => page.evaluate((u) => fetch(u).then((r) => r.text(), (e: Error) => `refused: ${e.message}`), url);
  expect(await read(closed)).toBe('refused: Failed to fetch');
  expect(await read(open)).toBe('shared');
});
