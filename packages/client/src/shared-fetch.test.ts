import { createMCPClient } from '@ai-sdk/mcp';
import { startChaosServer, type ChaosServer, type Fault } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client as Client2, StreamableHTTPClientTransport as Transport2, type AuthProvider } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch, type ResilientFetch } from './resilient-fetch.ts';
import { MemorySessionStore } from './session-store.ts';
import { sessionStoreKey } from './store-key.ts';
import { startAuthGateway, type AuthGateway } from './test-support/auth-gateway.ts';
import { stopAll } from './test-support/stop-all.ts';
import { startTokenGuard, type TokenGuard } from './test-support/token-guard.ts';

let chaos: ChaosServer | undefined;
let guard: TokenGuard | undefined;
let gateway: AuthGateway | undefined;
const closing: { close(): Promise<unknown> }[] = [];
afterEach(() => stopAll(closing.splice(0), [guard, gateway, chaos]).then(() => (chaos = guard = gateway = undefined)));

async function start(): Promise<TokenGuard> {
  chaos = await startChaosServer();
  return (guard = await startTokenGuard(chaos.url));
}
const inject = (...faults: Fault[]) => chaos!.applyFaults(faults);
const users = (n: number) => Array.from({ length: n }, (_, i) => `user${i}`);
const bearer = (user: string, version = 1) => ({ authorization: `Bearer ${user}.${version}` });

/** One user's SDK client (1.x or 2.x), on the fetch every user shares. */
interface UserClient {
  readonly user: string;
  echo(text: string): Promise<string>;
  sessionId(): string | undefined;
  terminate(): Promise<void>;
}

async function sdkClient(line: 1 | 2, user: string, fetch: ResilientFetch, url: string): Promise<UserClient> {
  const requestInit = { headers: bearer(user) };
  const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
  if (line === 1) {
    const transport = new Transport1(new URL(url), { fetch, requestInit });
    const client = new Client1({ name: user, version: '0' });
    closing.push(client);
    await client.connect(transport);
    return {
      user, sessionId: () => transport.sessionId, terminate: () => transport.terminateSession(),
      echo: async (t) => text(await client.callTool({ name: 'echo', arguments: { text: t } })),
    };
  }
  const transport = new Transport2(new URL(url), { fetch, requestInit });
  const client = new Client2({ name: user, version: '0' });
  closing.push(client);
  await client.connect(transport);
  return {
    user, sessionId: () => transport.sessionId, terminate: () => transport.terminateSession(),
    echo: async (t) => text(await client.callTool({ name: 'echo', arguments: { text: t } })),
  };
}

async function connectAll(line: 1 | 2, names: readonly string[], fetch: ResilientFetch, url: string): Promise<UserClient[]> {
  const clients: UserClient[] = [];
  for (const name of names) clients.push(await sdkClient(line, name, fetch, url)); // one after another: each initialize opens its own lineage
  return clients;
}
const echoAll = (clients: readonly UserClient[], text: string) => Promise.all(clients.map(async (c) => [c.user, await c.echo(`${text} ${c.user}`)]));
const expected = (clients: readonly UserClient[], text: string) => clients.map((c) => [c.user, `${text} ${c.user}`]);

describe.each([1, 2] as const)('one fetch shared by several users (SDK %i.x)', (line) => {
  it.each([{ persisted: false }, { persisted: true }])('two users: each call on its own session, each re-initializes once after an eviction with its own token (%o)', async ({ persisted }) => {
    const { url } = await start();
    const fetch = createResilientFetch(persisted ? { sessionStore: new MemorySessionStore() } : {});
    closing.push(fetch);
    const clients = await connectAll(line, users(2), fetch, url);
    expect(await echoAll(clients, 'before')).toEqual(expected(clients, 'before'));
    await inject({ kind: 'evict', session: 'all' });
    expect(await echoAll(clients, 'after')).toEqual(expected(clients, 'after'));
    expect(guard!.violations).toEqual([]);
    for (const { user } of clients) expect(guard!.initializes(user)).toEqual([`Bearer ${user}.1`, `Bearer ${user}.1`]);
  });

  it('twenty users, a restart under them: each re-initializes once with its own token, nothing crosses', async () => {
    const { url } = await start();
    const fetch = createResilientFetch();
    closing.push(fetch);
    const clients = await connectAll(line, users(20), fetch, url);
    expect(await echoAll(clients, 'one')).toEqual(expected(clients, 'one'));
    await inject({ kind: 'restart' });
    expect(await echoAll(clients, 'two')).toEqual(expected(clients, 'two'));
    expect(guard!.violations).toEqual([]);
    for (const { user } of clients) expect(guard!.initializes(user)).toHaveLength(2);
    expect(chaos!.state().sessions).toHaveLength(20);
  });

  it('one user ending its session (DELETE) while the others call ends only its own', async () => {
    const { url } = await start();
    const fetch = createResilientFetch();
    closing.push(fetch);
    const [leaving, ...staying] = await connectAll(line, users(3), fetch, url);
    const [, answers] = await Promise.all([leaving!.terminate(), echoAll(staying, 'during')]);
    expect(answers).toEqual(expected(staying, 'during'));
    expect(await echoAll(staying, 'after')).toEqual(expected(staying, 'after'));
    expect(chaos!.state().sessions).toHaveLength(2);
    expect(guard!.deletes(leaving!.user)).toBe(1);
    expect(guard!.violations).toEqual([]);
    for (const { user } of staying) expect(guard!.initializes(user)).toHaveLength(1); // nothing of theirs was ended
  });
});

describe('one fetch shared by several users: credentials and unknown sessions', () => {
  it('a re-initialization carries the credential the user sent last (a refreshed token), never another user\'s', async () => {
    const { url } = await start();
    const shared = createResilientFetch();
    closing.push(shared);
    let version = 1;
    // alice's token is refreshed by her own fetch wrapper; bob's never changes.
    const alice: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer user0.${version}`);
      return shared(input, { ...init, headers });
    };
    const [a] = await connectAll(1, ['user0'], Object.assign(alice, { close: shared.close }), url);
    const [b] = await connectAll(1, ['user1'], shared, url);
    version = 2;
    expect(await a!.echo('refreshed')).toBe('refreshed');
    await inject({ kind: 'evict', session: 'all' });
    expect(await b!.echo('b after')).toBe('b after');
    expect(await a!.echo('a after')).toBe('a after');
    expect(guard!.initializes('user0')).toEqual(['Bearer user0.1', 'Bearer user0.2']);
    expect(guard!.initializes('user1')).toEqual(['Bearer user1.1', 'Bearer user1.1']);
    expect(guard!.violations).toEqual([]);
  });

  it('a session id no client of this fetch opened goes out as it is, never as another user\'s session', async () => {
    const { url } = await start();
    const fetch = createResilientFetch();
    closing.push(fetch);
    const [alice] = await connectAll(1, ['user0'], fetch, url);
    const stranger = fetch(url, {
      method: 'POST',
      headers: {
        ...bearer('user9'), 'content-type': 'application/json', accept: 'application/json, text/event-stream',
        'mcp-session-id': 'made-up', 'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    // The server does not know it: the client had no initialize to open a new one with.
    await expect(stranger).rejects.toMatchObject({ code: 'REINITIALIZE_FAILED', details: { reason: 'no-initialize' } });
    expect(guard!.unknownIds).toEqual(['made-up']);
    expect(guard!.initializes('user9')).toEqual([]);
    expect(await alice!.echo('still mine')).toBe('still mine');
    expect(guard!.violations).toEqual([]);
  });
});

describe('one fetch shared by several users: lineages no client uses are forgotten', () => {
  it('past lineages.max the least recently used is forgotten: its client goes on as it is, on its own session, without recovery', async () => {
    const { url } = await start();
    const fetch = createResilientFetch({ lineages: { max: 2 } });
    closing.push(fetch);
    const [old, ...recent] = await connectAll(1, users(3), fetch, url); // the third lineage: the first is forgotten
    await inject({ kind: 'evict', session: 'all' });
    expect(await echoAll(recent, 'recovered')).toEqual(expected(recent, 'recovered'));
    // Forgotten, its client's id is one no lineage knows: sent as it is, and there is no initialize to open a new session with.
    await expect(old!.echo('lost')).rejects.toMatchObject({ code: 'REINITIALIZE_FAILED', details: { reason: 'no-initialize' } });
    expect(guard!.violations).toEqual([]);
    expect(guard!.initializes('user0')).toHaveLength(1);
  });

  it('refuses a bound that is not one', () => {
    expect(() => createResilientFetch({ lineages: { max: 0 } })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => createResilientFetch({ lineages: { idleMs: -1 } })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});

describe('one fetch shared by the Vercel AI SDK\'s clients (@ai-sdk/mcp), one client per request', () => {
  it('each request\'s client on its own session through an eviction; one closing ends only its own', async () => {
    const { url } = await start();
    const events: ResilienceEvent[] = [];
    const fetch = createResilientFetch({ onEvent: (e) => events.push(e) });
    closing.push(fetch);
    const open = (user: string) => createMCPClient({ transport: { type: 'http', url, fetch, headers: bearer(user) } });
    const call = async (client: Awaited<ReturnType<typeof open>>, text: string) =>
      ((await client.callTool({ name: 'echo', arguments: { text } })) as { content: { text: string }[] }).content[0]!.text;
    const [a, b] = [await open('user0'), await open('user1')];
    closing.push(a, b);
    expect(await Promise.all([call(a, 'a1'), call(b, 'b1')])).toEqual(['a1', 'b1']);
    await inject({ kind: 'evict', session: 'all' });
    expect(await Promise.all([call(a, 'a2'), call(b, 'b2')])).toEqual(['a2', 'b2']);
    await a.close();
    expect(await call(b, 'b3')).toBe('b3');
    const c = await open('user2'); // the next request's client, on the same fetch
    closing.push(c);
    expect(await Promise.all([call(b, 'b4'), call(c, 'c1')])).toEqual(['b4', 'c1']);
    expect(guard!.violations).toEqual([]);
    expect(guard!.initializes('user0')).toHaveLength(2);
    expect(guard!.initializes('user1')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'session-reinitialized')).toHaveLength(2);
  });
});

describe('one fetch shared by several users: credentials across churn', () => {
  /** The guard in front of a gateway that checks the session first, then the token, in front of mcp-chaos. */
  async function startProtected(): Promise<string> {
    chaos = await startChaosServer();
    gateway = await startAuthGateway(chaos.url, 'session-first');
    return (guard = await startTokenGuard(gateway.url)).url;
  }

  /** A user's SDK 2.x client whose auth provider refreshes `user.N` to `user.N+1`, unless it cannot. */
  async function authedClient(user: string, fetch: ResilientFetch, url: string, refreshable = true) {
    const auth = { version: 1, refreshes: 0 };
    const authProvider: AuthProvider = {
      token: async () => `${user}.${auth.version}`,
      onUnauthorized: async () => {
        auth.refreshes++;
        if (refreshable) auth.version++;
      },
    };
    const client = new Client2({ name: user, version: '0' });
    closing.push(client);
    await client.connect(new Transport2(new URL(url), { fetch, authProvider }));
    const echo = async (text: string) => ((await client.callTool({ name: 'echo', arguments: { text } })) as { content: { text: string }[] }).content[0]!.text;
    return { user, auth, echo };
  }

  it('two users\' sessions and tokens lost together: each refresh is its own, each new session opened with its own new token', async () => {
    const url = await startProtected();
    const fetch = createResilientFetch({ renewsCredentials: true });
    closing.push(fetch);
    const [a, b] = [await authedClient('user0', fetch, url), await authedClient('user1', fetch, url)];
    await Promise.all([a.echo('a'), b.echo('b')]);
    gateway!.expireTokensBelow(2);
    gateway!.endSessions();
    const texts = (who: string) => Array.from({ length: 5 }, (_, i) => `${who} ${i}`);
    const answers = await Promise.all([...texts('a').map(a.echo), ...texts('b').map(b.echo)]);
    expect(answers).toEqual([...texts('a'), ...texts('b')]);
    expect([a.auth.refreshes, b.auth.refreshes]).toEqual([1, 1]);
    expect(guard!.initializes('user0')).toEqual(['Bearer user0.1', 'Bearer user0.2']);
    expect(guard!.initializes('user1')).toEqual(['Bearer user1.1', 'Bearer user1.2']);
    expect(guard!.violations).toEqual([]);
  });

  it('one user\'s token that cannot be refreshed holds nobody else: the other user\'s calls are answered', async () => {
    const url = await startProtected();
    // Far beyond the test's timeout: a call held for credentials that never come would time the test out.
    const fetch = createResilientFetch({ requestDeadlineMs: 600_000 });
    closing.push(fetch);
    const stuck = await authedClient('user0', fetch, url, false);
    const fine = await authedClient('user1', fetch, url);
    await Promise.all([stuck.echo('s'), fine.echo('f')]);
    gateway!.expireTokensBelow(2);
    gateway!.endSessions();
    const [failed, answered] = await Promise.all([stuck.echo('s2').catch((e: unknown) => e), fine.echo('f2')]);
    expect(failed).toMatchObject({ name: 'SdkHttpError', message: expect.stringMatching(/401/) });
    expect(answered).toBe('f2');
    expect(await stuck.echo('s3').catch((e: unknown) => e)).toMatchObject({ name: 'SdkHttpError' }); // at once: it began after the refusal
    expect(guard!.initializes('user1')).toEqual(['Bearer user1.1', 'Bearer user1.2']);
    expect(guard!.violations).toEqual([]);
  });

  it('no token in any event (a loss report among them), log line or stored session', async () => {
    const url = await startProtected();
    const events: ResilienceEvent[] = [];
    const lines: string[] = [];
    const store = new MemorySessionStore();
    const writes: Promise<unknown>[] = [];
    const fetch = createResilientFetch({ onEvent: (e) => events.push(e), log: (line) => lines.push(line), sessionStore: store, background: (task) => void writes.push(task) });
    closing.push(fetch);
    const a = await authedClient('user0', fetch, url);
    await a.echo('before');
    gateway!.expireTokensBelow(2);
    gateway!.endSessions();
    expect(await a.echo('after')).toBe('after');
    expect(events.map((e) => e.type)).toEqual(['session-started', 'session-lost', 'session-started', 'session-reinitialized']);
    await Promise.all(writes);
    const stored = store.get(await sessionStoreKey(url));
    expect(stored).toMatchObject({ sessionId: expect.any(String) }); // stored: and without a token
    const seen = JSON.stringify({ events, lines, stored });
    expect(seen).not.toMatch(/user0\.\d/);
    expect(seen).not.toMatch(/bearer/i);
  });
});
