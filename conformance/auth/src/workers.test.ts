// Cloudflare's remote-MCP shape in workerd: `@cloudflare/workers-oauth-provider` in front of an SDK
// MCP server Worker (auth first: the bearer token is checked before the session), and a client
// Worker holding an SDK 1.x client through `durableClient` of `@mcp-resilience/cloudflare`, with the
// SDK's OAuth (`auth()`, refresh at the provider's real /token). The losses are made by the server's
// admin routes (sessions dropped, access tokens deleted from KV, the grant revoked), never by a clock.
// Each test signs in a user of its own (its own OAuth client and grant); one workerd serves them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireEntry } from './workers/oauth-mcp-server.ts';
import { startOAuthWorkers, type OAuthWorkers } from './workers/start-workers.ts';

let workers: OAuthWorkers;
beforeAll(async () => { workers = await startOAuthWorkers(); });
afterAll(async () => { await workers?.dispose(); });

/** The wire after `from`, one line per exchange: `POST /mcp tools/call t1 s1 → 401`. */
function trace(wire: readonly WireEntry[], from: number): string[] {
  return wire.slice(from).map((e) => `${e.method} ${e.path}${e.rpc ? ` ${e.rpc}` : ''}${e.grant ? ` ${e.grant}` : ''}${e.issued ? `→${e.issued}` : ''} ${e.token} ${e.session} → ${e.status}`);
}

/** Repeated lines counted: `20 × POST /mcp tools/call t3 s3 → 401`. */
function runs(lines: readonly string[]): string[] {
  const out: { line: string; n: number }[] = [];
  for (const line of lines) {
    const last = out.at(-1);
    if (last?.line === line) last.n += 1;
    else out.push({ line, n: 1 });
  }
  return out.map(({ line, n }) => (n === 1 ? line : `${n} × ${line}`));
}

/** Where the wire is now, and the counters then. */
async function mark() {
  const state = await workers.serverState();
  return { at: state.wire.length, refreshGrants: state.refreshGrants, initOk: state.initialize.ok, init401: state.initialize.unauthorized };
}

/** What happened on the server since `before`. */
async function since(before: Awaited<ReturnType<typeof mark>>) {
  const state = await workers.serverState();
  const wire = state.wire.slice(before.at);
  return {
    wire, trace: trace(state.wire, before.at),
    refreshes: state.refreshGrants - before.refreshGrants,
    initOk: state.initialize.ok - before.initOk, init401: state.initialize.unauthorized - before.init401,
  };
}

const answered = (n: number) => Array.from({ length: n }, (_, i) => ({ ok: true, text: `call-${i}` }));

describe('workers-oauth-provider (auth first) in workerd, the client through @mcp-resilience/cloudflare', () => {
  it('a session and an access token both gone after a pause: the next call is answered, after one refresh', async () => {
    const client = await workers.signIn('pause');
    expect(await workers.call('pause')).toEqual(answered(1));
    const before = await mark();
    await workers.admin('expire-tokens', client);
    await workers.admin('drop-sessions');

    expect(await workers.call('pause')).toEqual(answered(1));
    const after = await since(before);
    if (process.env.AUTH_TRACE) console.log(`(a) one call:\n${runs(after.trace).join('\n')}`);
    expect(after.refreshes).toBe(1);
    expect(after.initOk).toBe(1);
    expect(after.init401).toBe(0);
    // Auth first: 401 on the old token, refresh, 404 on the old session with the new token, a new session.
    const mcp = after.wire.filter((e) => e.path === '/mcp').map((e) => `${e.rpc} ${e.status}`);
    expect(mcp).toEqual(['tools/call 401', 'tools/call 404', 'initialize 200', 'notifications/initialized 202', 'tools/call 200']);
  });

  it('20 concurrent calls meeting both losses: all answered, one successful re-initialization', async () => {
    const client = await workers.signIn('crowd');
    expect(await workers.call('crowd')).toEqual(answered(1));
    const before = await mark();
    await workers.admin('expire-tokens', client);
    await workers.admin('drop-sessions');

    expect(await workers.call('crowd', 20)).toEqual(answered(20));
    const after = await since(before);
    if (process.env.AUTH_TRACE) console.log(`(b) 20 concurrent calls: ${after.refreshes} refreshes, ${after.initOk} initialize 200, ${after.init401} initialize 401\n${runs(after.trace).join('\n')}`);
    expect(after.initOk).toBe(1);
    expect(after.wire.filter((e) => e.rpc === 'tools/call' && e.status === 200)).toHaveLength(20);
    // 20 refusals, one refresh: the engine hands one 401 to one call (its SDK refreshes), and holds
    // the others until the client's credentials change (an engine without that: 20 refreshes).
    expect(after.wire.filter((e) => e.rpc === 'tools/call' && e.status === 401)).toHaveLength(20);
    expect(after.refreshes).toBe(1);
    expect((await workers.clientState('crowd')).redirects).toBe(0);

    // The refresh token the client kept is the grant's current one: the next loss of both is mended the same way.
    const again = await mark();
    await workers.admin('expire-tokens', client);
    await workers.admin('drop-sessions');
    expect(await workers.call('crowd')).toEqual(answered(1));
    const later = await since(again);
    expect([later.refreshes, later.initOk]).toEqual([1, 1]);
  });

  it('a token refreshed before the loss: the re-initialization carries the new token', async () => {
    const client = await workers.signIn('early');
    expect(client).toBeTruthy();
    expect(await workers.call('early')).toEqual(answered(1));
    const signedIn = await since({ at: 0, refreshGrants: 0, initOk: 0, init401: 0 });
    const first = signedIn.wire.filter((e) => e.rpc === 'initialize').at(-1)!.token;
    const before = await mark();
    await workers.refresh('early');
    await workers.admin('drop-sessions'); // the old token still works: only the session is gone

    expect(await workers.call('early')).toEqual(answered(1));
    const after = await since(before);
    if (process.env.AUTH_TRACE) console.log(`(d) refreshed before the loss:\n${runs(after.trace).join('\n')}`);
    const refreshed = after.wire.find((e) => e.grant === 'refresh_token')?.issued;
    expect(refreshed).toBeDefined();
    expect(refreshed).not.toBe(first);
    const reinit = after.wire.filter((e) => e.rpc === 'initialize');
    expect(reinit.map((e) => `${e.token} ${e.status}`)).toEqual([`${refreshed} 200`]);
    expect(after.refreshes).toBe(1);
  });

  it('a token that cannot be refreshed (grant revoked): the SDK\'s auth error, once, and nothing hangs', async () => {
    const client = await workers.signIn('revoked');
    expect(await workers.call('revoked')).toEqual(answered(1));
    const before = await mark();
    expect(await workers.admin('revoke', client)).toEqual({ revoked: 1 });
    await workers.admin('drop-sessions');

    const outcomes = await workers.call('revoked');
    const after = await since(before);
    if (process.env.AUTH_TRACE) console.log(`(c) grant revoked: ${JSON.stringify(outcomes)}\n${runs(after.trace).join('\n')}`);
    expect(outcomes).toEqual([{ ok: false, name: 'Error', message: 'Unauthorized', unauthorized: true }]); // the SDK's UnauthorizedError
    expect(after.refreshes).toBe(0);
    expect(after.initOk + after.init401).toBe(0); // the engine never saw a 404: no re-initialization
    expect(after.wire.filter((e) => e.grant === 'refresh_token').map((e) => e.status)).toEqual([400]);
    expect(after.wire.filter((e) => e.path === '/mcp').map((e) => `${e.rpc} ${e.status}`)).toEqual(['tools/call 401']);
    expect((await workers.clientState('revoked')).redirects).toBe(1); // the SDK asked for a sign-in; no user is there
  });

  it('after that, the next call (its SDK sends no token now) is refused at once too, not held for new credentials', async () => {
    const client = await workers.signIn('revoked-next');
    expect(await workers.call('revoked-next')).toEqual(answered(1));
    await workers.admin('revoke', client);
    await workers.admin('drop-sessions');
    expect(await workers.call('revoked-next')).toEqual([{ ok: false, name: 'Error', message: 'Unauthorized', unauthorized: true }]);

    const before = await mark();
    const outcomes = await workers.call('revoked-next'); // held for new credentials, it would outlast the test's cap
    const after = await since(before);
    if (process.env.AUTH_TRACE) console.log(`(c') the next call: ${JSON.stringify(outcomes)}\n${runs(after.trace).join('\n')}`);
    expect(outcomes).toEqual([{ ok: false, name: 'Error', message: 'Unauthorized', unauthorized: true }]);
    expect(after.wire.filter((e) => e.path === '/mcp').map((e) => `${e.rpc} ${e.token} ${e.status}`)).toEqual(['tools/call none 401']);
    expect(after.initOk + after.init401 + after.refreshes).toBe(0);
    // Not the engine's request deadline (20 s) spent waiting for credentials that will never come.
  });
});
