// `pnpm demo --web`: serves a page where the demo's story runs in the browser (a plain SDK client
// and one given @mcp-resilience/browser's createResilientFetch), with mcp-chaos's live view
// beside it. Ends when the page has told the story, on Ctrl-C, or after WAIT_MS; stops what it started.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startChaosServer } from '@mcp-resilience/chaos';
import { build } from 'esbuild';
import { DEMO_PAGE_CSS, DEMO_PAGE_HEADERS, demoPageHtml } from './demo-web-html.ts';
import type { DemoOutcome } from './demo-story.ts';

/** The page's script, compiled from demo-web-page.ts beside this file, bundled with the SDK when the demo starts. */
const PAGE_ENTRY = fileURLToPath(new URL('./demo-web-page.js', import.meta.url));
/** How long the demo waits for a page to open and finish the story. */
const WAIT_MS = 15 * 60_000;
const MAX_BODY = 64 * 1024;

/** What the page posts to `/done`: the story's outcome, or why it could not be told. */
export type PageReport = DemoOutcome | { readonly error: string };

async function bundle(): Promise<string> {
  const result = await build({ entryPoints: [PAGE_ENTRY], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  return result.outputFiles[0]!.text;
}

async function readReport(req: IncomingMessage): Promise<PageReport> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_BODY) return { error: 'the page sent more than 64 KiB' };
  }
  try {
    return JSON.parse(text) as PageReport;
  } catch {
    return { error: 'the page sent something that is not JSON' };
  }
}

/**
 * Runs the web demo: prints the URL to open, waits for the page's report, prints its summary.
 * Answers the exit code: 0 when the story went as designed, 1 when not (or when no page told it
 * within 15 minutes), 0 on Ctrl-C (a stop asked for).
 */
export async function runWebDemo(): Promise<number> {
  const script = await bundle();
  let finish!: (end: PageReport | 'interrupted' | 'timeout') => void;
  const finished = new Promise<PageReport | 'interrupted' | 'timeout'>((resolve) => (finish = resolve));
  let origin = '';
  let control = '';
  const send = (res: ServerResponse, status: number, type: string, body: string) =>
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).end(body);
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') return void res.writeHead(200, DEMO_PAGE_HEADERS).end(demoPageHtml(control));
    if (req.method === 'GET' && req.url === '/demo.js') return send(res, 200, 'text/javascript; charset=utf-8', script);
    if (req.method === 'GET' && req.url === '/demo.css') return send(res, 200, 'text/css; charset=utf-8', DEMO_PAGE_CSS);
    if (req.method === 'POST' && req.url === '/done' && req.headers.origin === origin) {
      return void readReport(req).then((report) => (res.writeHead(204).end(), finish(report)));
    }
    send(res, 404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  // The page drives the chaos server's pool (a fresh server per visit) and frames its live view.
  const chaos = await startChaosServer({ controlOrigins: [origin] });
  control = chaos.control;
  const interrupted = () => finish('interrupted');
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const timer = setTimeout(() => finish('timeout'), WAIT_MS);
  console.log(`mcp-resilience web demo: open ${origin}/ in a browser; the story runs in the page, the live view beside it (Ctrl-C to stop)`);
  try {
    const end = await finished;
    if (end === 'interrupted') return (console.log('stopped (Ctrl-C)'), 0);
    if (end === 'timeout') return (console.log(`no page told the story within ${WAIT_MS / 60_000} minutes: stopping`), 1);
    if ('error' in end) return (console.log(`the page could not tell the story: ${end.error}`), 1);
    console.log(end.summary);
    return end.asDesigned ? 0 : 1;
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await chaos.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
