import { fileURLToPath } from 'node:url';
import { callLongTool, createResilientFetch } from '@mcp-resilience/client';
import { normalizeTrace, type ResilienceEvent } from '@mcp-resilience/core';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { START_CAP_MS } from '@mcp-resilience/chaos/process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/server-process.ts';
import { SDK1_PER_SESSION } from './support/servers.ts';

const TASKS_SERVER = fileURLToPath(new URL('../dist/servers/sdk1-tasks.js', import.meta.url));
const DELAY_MS = 1_200;

type AnyClient = ClientV1 | ClientV2;
interface Connected {
  readonly client: AnyClient;
  readonly events: ResilienceEvent[];
  /** The session id the SDK's transport holds now. */
  readonly sessionId: () => string | undefined;
  /** Holds the engine's requests not yet sent until `until` settles. */
  readonly hold: (until: Promise<unknown>) => void;
}

const clients: AnyClient[] = [];
async function connect(url: string, line: 1 | 2, options: Parameters<typeof createResilientFetch>[0] = {}): Promise<Connected> {
  const events: ResilienceEvent[] = [];
  let held: Promise<unknown> = Promise.resolve();
  const wire: typeof globalThis.fetch = async (input, init) => (await held, globalThis.fetch(input, init));
  const fetch = createResilientFetch({ onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 50 }, fetch: wire, ...options });
  const transport = line === 1 ? new TransportV1(new URL(url), { fetch }) : new TransportV2(new URL(url), { fetch });
  const client = line === 1 ? new ClientV1({ name: 'tasks', version: '0' }) : new ClientV2({ name: 'tasks', version: '0' });
  client.onerror = () => {};
  clients.push(client);
  await client.connect(transport as never);
  return { client, events, sessionId: () => transport.sessionId, hold: (until) => void (held = until.catch(() => {})) };
}

/**
 * The server ends the session while the task runs: the test sends the DELETE itself, from
 * outside the engine (to the engine it is a session the server dropped), once the task exists;
 * the engine's next request (the task's first poll) waits for it to be answered, however slow the machine.
 */
function endSessionOnCreation(url: string, connected: Connected): { onTask: () => void } {
  let ended = false;
  return {
    onTask: () => {
      if (ended) return;
      ended = true;
      connected.hold(fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': connected.sessionId()!, 'mcp-protocol-version': '2025-11-25' } }));
    },
  };
}

const lossTrace = (events: ResilienceEvent[]) => normalizeTrace(events).filter((e) => e.type !== 'session-started').map((e) => e.type);

describe('tasks on the official SDK 1.x server (its own task support: registerToolTask, InMemoryTaskStore, the tasks/* handlers)', () => {
  let shipped: RunningServer | undefined;
  let serverBound: RunningServer | undefined;
  beforeAll(async () => {
    [shipped, serverBound] = await Promise.all([startServer(SDK1_PER_SESSION.launch), startServer({ args: () => [TASKS_SERVER], env: (p) => ({ PORT: String(p) }) })]);
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
    await Promise.all([shipped?.stop(), serverBound?.stop()]);
  });

  it('its shipped example binds tasks to their session: lost with it, the call fails TASK_LOST (never re-created)', async () => {
    const connected = await connect(shipped!.url, 1);
    // Its delay task, 3 s: the example polls every second, so the loss is met well before the task ends.
    const calling = callLongTool(connected.client, { name: 'delay', arguments: { duration: 3_000 } }, endSessionOnCreation(shipped!.url, connected));
    const error = await calling.catch((e: unknown) => e);
    expect(error, JSON.stringify(connected.events)).toMatchObject({ code: 'TASK_LOST', details: { taskId: expect.any(String), mayStillRun: true, recreatable: false } });
    // The standalone stream, reopened on the new session too, may add a `replayed` of its own.
    const trace = lossTrace(connected.events);
    expect(trace.slice(0, 2)).toEqual(['session-lost', 'session-reinitialized']);
    expect(trace.slice(-2)).toEqual(['task-lost', 'gave-up']);
    expect(connected.events.find((e) => e.type === 'task-lost')).toMatchObject({ task: 1, session: 1, method: 'tasks/get' });
  });

  // Its task ends 3 s after it began, in the test before: ten times that is a hang.
  it('and the example\'s process dies when that task ends: the SDK\'s storeTaskResult rejects (Not connected) on the closed session, and nothing catches it', { timeout: 60_000 }, async () => {
    expect(await shipped!.whenExited(30_000)).toMatchObject({ code: 1, stderr: expect.stringContaining('Error: Not connected') });
  });

  for (const line of [1, 2] as const) {
    it(`with the store given no session id, a task outlives its session: SDK ${line}.x polls it on the new session, result delivered`, async () => {
      const connected = await connect(serverBound!.url, line);
      const calling = callLongTool(connected.client, { name: 'delay', arguments: { duration: DELAY_MS } }, endSessionOnCreation(serverBound!.url, connected));
      await expect(calling).resolves.toMatchObject({ content: [{ type: 'text', text: `Completed ${DELAY_MS}ms delay` }] });
      expect(lossTrace(connected.events)).toContain('task-survived');
      expect(lossTrace(connected.events).slice(0, 3)).toEqual(['session-lost', 'session-reinitialized', 'replayed']);
    });
  }

  it('a restart loses the task even there (in memory): TASK_LOST', { timeout: START_CAP_MS + 60_000 }, async () => {
    // Polls meet refused connections while the process starts again: waited for as long as a start
    // may take (START_CAP_MS), so that a slow start is never read as a server that stayed away.
    const connected = await connect(serverBound!.url, 1, {
      backoff: { initialMs: 100, maxMs: 1_000, maxAttempts: 40, maxTotalDelayMs: 30_000 }, retryBudget: false, restartWait: { maxWaitMs: START_CAP_MS },
    });
    let restarting: Promise<void> | undefined;
    const calling = callLongTool(connected.client, { name: 'delay', arguments: { duration: DELAY_MS } }, {
      onTask: () => void (restarting ??= serverBound!.restart()),
    });
    const outcome = await calling.then(() => 'answered', (error: unknown) => error);
    await restarting; // a restart that did not start fails here, with what the server printed
    expect(outcome).toMatchObject({ code: 'TASK_LOST' });
    expect(lossTrace(connected.events).slice(-2)).toEqual(['task-lost', 'gave-up']);
  });
});
