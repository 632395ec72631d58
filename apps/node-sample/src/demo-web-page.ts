// The web demo's page script (bundled by demo-web.ts): the demo's story, told in the browser. It
// takes a fresh chaos server from the pool, frames that server's live view, runs the story with
// @mcp-resilience/browser's createResilientFetch, and reports how it ended to the demo process.
import { createResilientFetch } from '@mcp-resilience/browser';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DemoLine } from './demo-stage.ts';
import { DEMO_CHAOS, runDemoStory, type DemoOutcome } from './demo-story.ts';

const IFRAME_LOAD_CAP_MS = 10_000;

const story = document.getElementById('story')!;
const progress = document.getElementById('progress')!;

async function controlApi<T>(url: string, method: 'GET' | 'POST', body?: unknown): Promise<T> {
  const response = await fetch(url, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A line of the story as the page shows it: ✓ and ✗ coloured, the clients' rows labelled. */
function show(line: DemoLine): void {
  const element = document.createElement('p');
  element.className = 'line';
  element.dataset.kind = line.kind;
  if (line.kind === 'row') {
    element.dataset.side = line.side;
    const side = document.createElement('span');
    side.className = 'side';
    side.textContent = line.side;
    element.append(side);
  }
  for (const part of line.text.split(/([✓✗])/u)) {
    if (part !== '✓' && part !== '✗') element.append(part);
    else {
      const mark = document.createElement('span');
      mark.className = part === '✓' ? 'ok' : 'failed';
      mark.textContent = part;
      element.append(mark);
    }
  }
  story.append(element);
  element.scrollIntoView({ block: 'nearest' });
  if (line.kind === 'act') progress.textContent = `running: ${line.text}`;
}

/** Frames the live view of `control`, and waits (capped) for it to load so that it watches from the start. */
function frameLiveView(control: string): Promise<void> {
  const frame = document.getElementById('live') as HTMLIFrameElement;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, IFRAME_LOAD_CAP_MS);
    frame.onload = () => (clearTimeout(timer), resolve());
    frame.src = `${control}/`;
  });
}

async function tell(): Promise<DemoOutcome> {
  const root = document.querySelector<HTMLMetaElement>('meta[name="chaos-control"]')!.content;
  const server = await controlApi<{ url: string; control: string }>(`${root}/servers`, 'POST', DEMO_CHAOS);
  await frameLiveView(server.control);
  const closing: Client[] = [];
  try {
    return await runDemoStory({
      url: server.url,
      apply: async (faults) => void (await controlApi(`${server.control}/faults`, 'POST', faults)),
      reset: async () => void (await controlApi(`${server.control}/reset`, 'POST')),
      state: () => controlApi(`${server.control}/state`, 'GET'),
      createResilientFetch: (options) => createResilientFetch({ ...options, persist: false }),
      say: show,
    }, closing);
  } finally {
    for (const client of closing) await client.close().catch(() => {});
  }
}

const report = (body: unknown) => fetch('/done', { method: 'POST', body: JSON.stringify(body) }).catch(() => {});

try {
  const outcome = await tell();
  progress.dataset.state = outcome.asDesigned ? 'done' : 'failed';
  progress.dataset.plainFailed = String(outcome.plain.failed);
  progress.dataset.resilientFailed = String(outcome.resilient.failed);
  progress.textContent = `done: the plain client lost ${outcome.plain.failed} of ${outcome.plain.calls} calls; the resilient one `
    + `${outcome.asDesigned ? 'only the call it must not run twice (OUTCOME_UNKNOWN, at once)' : `${outcome.resilient.failed} (not as designed)`}`;
  await report(outcome);
} catch (error) {
  progress.dataset.state = 'failed';
  progress.textContent = `the story stopped: ${String(error)}`;
  await report({ error: String(error) });
}
