import { createTimeline, type Timeline, type WireRecord } from './counting-fetch.ts';
import { connectClient, type SdkLine, type TestClient } from './sdk-clients.ts';
import type { RunningServer } from './server-process.ts';
import type { RealServer } from './servers.ts';
import { answersTo, type AnswerPair } from './wire-answer.ts';

/** What one client did through one real restart, and at its close. */
export interface ClientThroughRestart {
  readonly client: TestClient;
  /** The session id it had before the restart (dead after it); `undefined` on a server without sessions. */
  readonly deadId: string | undefined;
  /** The timeline tick at which the server was killed. */
  readonly restartedAt: number;
  /** The calls made after the restart, in order, as settled. */
  readonly after: readonly { readonly text: string; readonly outcome: PromiseSettledResult<string> }[];
  /** The session the engine replaced the dead one with (`undefined`: none was opened). */
  readonly liveId: string | undefined;
  /** How `transport.terminateSession()` settled (the DELETE at close). */
  readonly terminated: PromiseSettledResult<void>;
  /** What the server answered for {@link ClientThroughRestart.liveId} after that DELETE. */
  readonly afterDelete: AnswerPair | undefined;
}

export interface RestartClient {
  readonly line: SdkLine;
  readonly engine: boolean;
  /** Pin the 2.x client to a revision (`2026-07-28`). */
  readonly pin?: string;
}

/** Who goes through the restart: both SDK lines, with the engine and plain, in the same run. */
export const RESTART_CLIENTS: readonly RestartClient[] = [
  { line: '1.x', engine: true },
  { line: '2.x', engine: true },
  { line: '1.x', engine: false },
  { line: '2.x', engine: false },
];

/** Calls made after the restart through the engine, all at once; a plain client makes two in a row. */
export const CONCURRENT_CALLS = 20;

const sessionIds = (wire: readonly WireRecord[], from = 0) =>
  wire.filter((r) => r.sentAt > from && r.rpcMethods.includes('initialize') && r.issuedSessionId).map((r) => r.issuedSessionId!);

async function callsAfter(server: RealServer, client: TestClient) {
  const texts = Array.from({ length: client.engine ? CONCURRENT_CALLS : 2 }, (_, i) => `after-${client.label}-${i}`);
  if (client.engine) {
    const settled = await Promise.allSettled(texts.map((text) => client.call(server.tool(text))));
    return texts.map((text, i) => ({ text, outcome: settled[i]! }));
  }
  const out = [];
  for (const text of texts) out.push({ text, outcome: (await Promise.allSettled([client.call(server.tool(text))]))[0]! });
  return out;
}

async function connect(server: RealServer, running: RunningServer, spec: RestartClient, timeline: Timeline, opened: TestClient[]) {
  const client = await connectClient({ ...spec, url: running.url, timeline });
  opened.push(client);
  const text = `before-${client.label}`;
  const answer = await client.call(server.tool(text));
  if (answer !== server.answer(text)) throw new Error(`${client.label}: answered ${answer} before the restart`);
  return client;
}

async function finish(server: RealServer, running: RunningServer, client: TestClient, restartedAt: number, deadId: string | undefined,
  after: ClientThroughRestart['after']): Promise<ClientThroughRestart> {
  const liveId = sessionIds(client.wire, restartedAt).at(-1);
  const terminated = (await Promise.allSettled([client.terminate()]))[0]!;
  const afterDelete = liveId === undefined ? undefined : await answersTo(running.url, liveId);
  await client.close();
  return { client, deadId, restartedAt, after, liveId, terminated, afterDelete };
}

/**
 * Puts each client of `clients` through a real restart of `running` (the process killed by
 * PID and started again on the same port): a call before; after it {@link CONCURRENT_CALLS}
 * concurrent calls (engine) or two calls in a row (plain); then the DELETE at close
 * (`terminateSession()`), and a probe of the session it deleted. A server with one session per
 * process serves one client per process life, so there each client gets a fresh process and a
 * restart of its own; elsewhere all clients meet the same restart.
 *
 * @example
 * const runs = await runThroughRestart(SERVER_EVERYTHING, running, RESTART_CLIENTS, opened);
 * runs[0].after.every((a) => a.outcome.status === 'fulfilled');
 */
export async function runThroughRestart(server: RealServer, running: RunningServer, clients: readonly RestartClient[],
  opened: TestClient[]): Promise<ClientThroughRestart[]> {
  const timeline = createTimeline();
  const runs: ClientThroughRestart[] = [];
  if (server.sessions === 'one-per-process') {
    for (const spec of clients) {
      await running.restart();
      const client = await connect(server, running, spec, timeline, opened);
      const restartedAt = timeline.tick();
      await running.restart();
      const after = await callsAfter(server, client);
      runs.push(await finish(server, running, client, restartedAt, sessionIds(client.wire)[0], after));
    }
    return runs;
  }
  const connected: TestClient[] = [];
  for (const spec of clients) connected.push(await connect(server, running, spec, timeline, opened));
  const restartedAt = timeline.tick();
  await running.restart();
  const afters = [];
  for (const client of connected) afters.push(await callsAfter(server, client));
  for (const [i, client] of connected.entries()) runs.push(await finish(server, running, client, restartedAt, sessionIds(client.wire)[0], afters[i]!));
  return runs;
}
