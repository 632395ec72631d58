import { fileURLToPath } from 'node:url';
import { describeOutput, START_CAP_MS, startProcess, type StartedProcess } from '@mcp-resilience/chaos/process';
import { launchChromium, type LaunchedChromium } from '@mcp-resilience/chromium';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// `pnpm demo --web` as a user runs it: the built demo as a process (stopped by PID if it does not
// end by itself), its page in real Chromium. Every wait is on what the page shows or the demo
// prints, capped by a hang guard.
const DEMO = fileURLToPath(new URL('../dist/demo.js', import.meta.url));
/** The story takes about 17 s on a quiet machine: ten times that is a hang. */
const STORY_HANG_MS = 180_000;

interface Demo {
  readonly started: StartedProcess<string>;
  /** Where the page is. */
  readonly url: string;
  /** Resolves with its exit code once it has exited and all it printed is read. */
  readonly exited: Promise<number | null>;
}

let demo: Demo | undefined;
let browser: LaunchedChromium | undefined;

/** The demo as a process; ready once it prints where to open its page (it bundles the page first). */
async function startDemo(): Promise<Demo> {
  const started = await startProcess(process.execPath, [DEMO, '--web'], {
    name: 'pnpm demo --web', ready: { line: (line, stream) => (stream === 'stdout' ? /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1] : undefined) },
  });
  const exited = new Promise<number | null>((resolve) => started.child.once('close', (code) => resolve(code)));
  return { started, url: started.ready, exited };
}

/** What the demo printed, for a failure's message. */
const printed = () => (demo ? describeOutput(demo.started.output) : '(not started)');

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await demo?.started.stop('SIGKILL'); // by its PID, if it did not end by itself
  demo = undefined;
});

describe('pnpm demo --web, in Chromium', () => {
  it('tells the story in the page to the end: the plain client loses calls, the resilient one only the call it must not run twice; the live view draws it; then it ends by itself', async () => {
    demo = await startDemo();
    const complaints: string[] = [];
    const page = await browser!.context.newPage();
    page.on('console', (m) => void (/Content.Security.Policy|Refused to/i.test(m.text()) && complaints.push(m.text())));
    page.on('pageerror', (e) => void complaints.push(e.message));
    await page.goto(demo.url);
    // The story as the page told it: what each call met, should the outcome not be the designed one.
    const told = async () => (await page.$$eval('.line', (lines) => lines.map((l) => l.textContent).join('\n'))).slice(0, 6_000);
    const progress = await page.waitForSelector('#progress[data-state="done"], #progress[data-state="failed"]', { timeout: STORY_HANG_MS }).catch(async (error: Error) => {
      throw new Error(`hung: the page had not finished the story after ${STORY_HANG_MS / 1000} s (${error.message.split('\n')[0]})\nthe story so far:\n${await told()}\nthe demo printed\n${printed()}`);
    });
    const story = await told();
    expect(await progress.textContent(), story).toContain('only the call it must not run twice');
    expect(Number(await progress.getAttribute('data-plain-failed'))).toBeGreaterThan(0);
    expect(await progress.getAttribute('data-resilient-failed')).toBe('1');

    expect(await page.$$eval('.line[data-kind="act"]', (acts) => acts.map((a) => a.textContent!.slice(0, 3)))).toEqual(['1 ·', '2 ·', '3 ·', '4 ·']);
    // The resilient client's one ✗ is act 4's OUTCOME_UNKNOWN; the plain client's are many.
    expect(await page.$$eval('.line[data-side="resilient"] .failed', (marks) => marks.map((m) => m.parentElement!.textContent))).toEqual([
      expect.stringContaining('OUTCOME_UNKNOWN'),
    ]);
    expect((await page.$$('.line[data-side="plain"] .failed')).length).toBeGreaterThan(3);
    const summary = (await page.textContent('.line[data-kind="summary"]'))!;
    expect(summary).toMatch(/^plain client: \d+ of 15 calls failed · resilient client: 1 of 15 failed \(OUTCOME_UNKNOWN: ran once, never twice\)/);

    // Beside it, the chaos server's live view drew the same churn.
    const live = page.frames().find((f) => f.url().endsWith('/_chaos/'))!;
    for (const selector of ['.fault[data-kind="restart"]', '.lane[data-reason="restart"]', '.lane[data-reason="idle"]', '.call[data-outcome="session-gone"]',
      '.call[data-outcome="slow-down"]', '.call[data-outcome="dropped"]', '.fault[data-kind="drop-stream"]']) {
      expect(await live.$(selector), selector).not.toBeNull();
    }

    expect(await demo.exited, printed()).toBe(0);
    // The demo stopped its servers in order: the live view says the run is over, calmly, and keeps its drawing.
    await live.waitForSelector('#status[data-state="stopped"]', { timeout: 10_000 });
    expect(await live.$('.server-stopped')).not.toBeNull();
    expect(demo.started.output.stdout).toContain(summary.replace(/ · [\d.]+ s$/, ''));
    expect(complaints).toEqual([]);
  }, START_CAP_MS + STORY_HANG_MS + 60_000);

  it('stops on Ctrl-C, with what it started', { timeout: START_CAP_MS + 30_000 }, async () => {
    demo = await startDemo();
    expect((await fetch(demo.url)).status).toBe(200);
    process.kill(demo.started.pid, 'SIGINT');
    expect(await demo.exited, printed()).toBe(0);
    expect(demo.started.output.stdout).toContain('stopped (Ctrl-C)');
    await expect(fetch(demo.url)).rejects.toThrow();
  });
});
