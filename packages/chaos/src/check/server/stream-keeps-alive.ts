import { sessionHeaders, shown, type McpTalk } from './mcp-talk.ts';
import { failed, passed, skipped, type Verdict } from './server-catalogue.ts';
import { openStream } from './server-http.ts';

/** The longest the idle check waits for a control session to idle out: 20 budgets, at least 30 s. */
export const idleCapMs = (idleMs: number): number => Math.max(30_000, idleMs * 20);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `stream-keeps-alive` (the seed: "holding the notification stream open counts as use"): opens a
 * session with a GET stream held open, and a control session without one; waits past the idle
 * budget (`idleMs`, the server's) and asks the control session, again each budget (each ask is
 * use, so its idle time starts over), until the server has expired it — proof, on the server's own
 * clock, that the budget passed (404, or 400 from a server that says "session gone" so). Then the streamed session must still be answered. The verdict
 * does not depend on how fast anything ran: a slow machine only waits longer (capped at
 * {@link idleCapMs}). Skipped without `idleMs`, or when the server offers no GET stream (405).
 *
 * @example
 * await streamKeepsAlive(talk, 200);
 */
export async function streamKeepsAlive(talk: McpTalk, idleMs: number | undefined): Promise<Verdict> {
  if (idleMs === undefined) return skipped('no --idle-ms: the server\'s idle budget is needed to hold a stream open past it');
  const streamed = await talk.open();
  const stream = await openStream(talk.url, sessionHeaders(streamed), talk.capMs);
  try {
    if (stream.status === 405) return skipped('GET on a live session was answered 405: the server offers no stream to hold open');
    if (stream.status !== 200) return failed(`GET (the standalone stream) on a live session → ${stream.status}, not 200`);
    const control = await talk.open();
    const started = Date.now();
    for (;;) {
      await wait(idleMs + Math.max(50, idleMs / 2));
      const ask = await talk.doWork(control);
      // 404, or 400 where the server says "session gone" so (mcp-facts.md §3): either way it has expired.
      if (ask.status === 404 || ask.status === 400) break;
      if (!ask.answered) return failed(`the control session was answered ${shown(ask)} after ${Date.now() - started} ms idle, neither "session gone" nor an answer`);
      if (Date.now() - started > idleCapMs(idleMs)) {
        return failed(`a session without a stream was still answered after ${Date.now() - started} ms: is ${idleMs} ms (--idle-ms) the server's idle budget?`);
      }
    }
    const idled = Date.now() - started;
    if (!stream.open()) return failed(`the server closed the open GET stream while its session was idle (a session without one idled out after ${idled} ms)`);
    const work = await talk.doWork(streamed);
    if (!work.answered) return failed(`a session without a stream idled out (gone after ${idled} ms); the one with its GET stream open → ${shown(work)}`);
    return passed(`a session without a stream idled out (gone after ${idled} ms); the one with its GET stream open was answered`);
  } finally {
    stream.close();
  }
}
