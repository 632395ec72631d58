import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type ConnectOptions } from './connect.ts';
import { MemorySessionStore } from './session-store.ts';
import { sessionStoreKey } from './store-key.ts';
import { INSTRUCTIONS, SERVER_INFO, startInstructedServer, type InstructedServer } from './test-support/instructed-server.ts';
import { stopAll } from './test-support/stop-all.ts';
import { until } from './test-support/until.ts';

let server: InstructedServer | undefined;
const clients: Client[] = [];
afterEach(() => stopAll(clients.splice(0), [server]).then(() => (server = undefined)));

const USER = 'user:alice';

/** A client of `store` for USER; its store writes (background work) are awaited before it is handed back. */
async function open(store: MemorySessionStore, options: ConnectOptions = {}): Promise<Client> {
  const writes: Promise<unknown>[] = [];
  const client = await connect(server!.url, { sessionStore: store, resumeStored: true, identity: USER, background: (task) => void writes.push(task), ...options });
  clients.push(client);
  await client.callTool({ name: 'hello' });
  await Promise.all(writes);
  return client;
}

/** The first client's session, stored; the first client gone (its GET stream closed: the server allows one per session). */
async function storedByFirstClient(options: ConnectOptions = {}): Promise<{ store: MemorySessionStore; sessionId: string }> {
  const store = new MemorySessionStore();
  const first = await open(store, options);
  const sessionId = (first.transport as { sessionId?: string }).sessionId!;
  await until(() => server!.openStreams(sessionId) === 1, 'the first client\'s GET stream');
  await first.close(); // keeps the session, stored
  await until(() => server!.openStreams(sessionId) === 0, 'the first client\'s GET stream closed');
  return { store, sessionId };
}

describe('a client that resumes a stored session is a whole client (official SDK server)', () => {
  it('opens its standalone GET stream, receives notifications/message there, and knows the server\'s instructions and version', async () => {
    server = await startInstructedServer();
    const { store, sessionId } = await storedByFirstClient();
    const resumed = await open(store);
    const received: unknown[] = [];
    resumed.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void received.push(n.params.data));
    await until(() => server!.openStreams(sessionId) === 1, 'the resumed client\'s GET stream');
    // On the wire: one initialize (the first client's), the resumed client's requests on the same session, its GET among them.
    const requests = server.log.map((e) => [e.httpMethod, e.rpcMethod ?? null, e.sessionId === sessionId]);
    expect(requests.filter(([, rpc]) => rpc === 'initialize')).toHaveLength(1);
    expect(requests.filter(([, rpc]) => rpc === 'notifications/initialized')).toHaveLength(1); // never sent again
    expect(requests.filter(([http, , same]) => http === 'GET' && same)).toHaveLength(2); // the first client's, then the resumed one's
    await server.notifyAll('to whoever listens');
    await until(() => received.length === 1, 'the notification');
    expect(received).toEqual(['to whoever listens']);
    expect(resumed.getInstructions()).toBe(INSTRUCTIONS);
    expect(resumed.getServerVersion()).toEqual(SERVER_INFO);
  });

  it('opens a new session for a resumed client with today\'s clientInfo and capabilities, not those of the client that stored it', async () => {
    server = await startInstructedServer();
    const { store } = await storedByFirstClient({ clientInfo: { name: 'app', version: '1.0.0' } });
    const today = { clientInfo: { name: 'app', version: '2.0.0' }, clientOptions: { capabilities: { roots: { listChanged: true } } } };
    const resumed = await open(store, today);
    await server.evictAll();
    await expect(resumed.callTool({ name: 'hello' })).resolves.toMatchObject({ content: [{ text: 'hello' }] });
    const initializes = server.log.filter((e) => e.rpcMethod === 'initialize');
    expect(initializes.map((e) => [e.clientInfo, e.capabilities])).toEqual([
      [{ name: 'app', version: '1.0.0' }, {}],
      [{ name: 'app', version: '2.0.0' }, { roots: { listChanged: true } }],
    ]);
    expect(resumed.getServerVersion()).toEqual(SERVER_INFO);
  });

  it('with a stored session that was lost (no live id, its lineage\'s name), opens one new session and its GET stream there', async () => {
    server = await startInstructedServer();
    const { store } = await storedByFirstClient();
    const key = await sessionStoreKey(server.url, USER);
    const { sessionId: _, ...lost } = store.get(key)!;
    store.set(key, lost); // as stored after a loss: only the lineage's name
    await server.evictAll();
    const resumed = await open(store);
    const sessionId = server.log.filter((e) => e.rpcMethod === 'tools/call').at(-1)!.sessionId!;
    await until(() => server!.openStreams(sessionId) === 1, 'the resumed client\'s GET stream on the new session');
    const received: unknown[] = [];
    resumed.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void received.push(n.params.data));
    await server.notifyAll('on the new session');
    await until(() => received.length === 1, 'the notification');
    expect(server.log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(2);
    expect(resumed.getInstructions()).toBe(INSTRUCTIONS);
  });
});
