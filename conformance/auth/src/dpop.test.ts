import { DpopSession, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServer } from './support/authorization-server.ts';
import { DPOP_COMPOSITIONS, DpopOAuthClientProvider, type DpopClient, type DpopCompositionName } from './support/dpop-clients.ts';
import { renderDpopWire, startDpopResourceServer, type DpopResourceServer, type DpopWireEntry } from './support/dpop-resource-server.ts';
import { obtainFirstTokens } from './support/first-tokens.ts';
import { startProtectedMcpServer, type ProtectedMcpServer } from './support/protected-mcp-server.ts';
import { settle, within } from './support/within.ts';

// DPoP (RFC 9449) across churn. A proof is good for one request: the resource server here refuses a
// `jti` it has seen (401 `DPoP error="invalid_dpop_proof"`). What the engine sends on its own (a
// re-initialization, a replay, a retry after a 429) needs a proof of its own, which only a DPoP
// layer *inside* the engine (its `fetch`) can sign. A DPoP layer *outside* it (around the engine)
// signs once per request the SDK sends, and the engine sends again what it was given: the
// re-initialization carries the proof of the client's first `initialize` (remembered with its
// headers), a retry after a 429 the proof of the request it repeats.

/** A cap on one call: far above what it takes on loopback (milliseconds). */
const CALL_CAP_MS = 10_000;
const CONCURRENT_CALLS = 5;

const INSIDE: readonly DpopCompositionName[] = [
  'B1 inside: fetch: engine over withDpop(session, getToken)(fetch), authProvider { token }',
  'B2 inside and outside: transport authProvider with dpop(), fetch: engine over withDpopFromProvider(provider)(fetch)',
];
const A1: DpopCompositionName = 'A1 outside: transport authProvider with dpop(), fetch: engine';
const A2: DpopCompositionName = 'A2 outside: fetch: withDpop(session, getToken)(engine), authProvider { token }';

let as: AuthorizationServer;
let upstream: ProtectedMcpServer;
let rs: DpopResourceServer;

beforeAll(async () => {
  as = await startAuthorizationServer();
  upstream = await startProtectedMcpServer('auth-first', as);
  rs = await startDpopResourceServer(upstream, as);
});
afterAll(async () => {
  await rs?.close();
  await upstream?.close();
  await as?.close();
});

interface Opened {
  readonly client: DpopClient;
  readonly provider: DpopOAuthClientProvider;
  /** Proofs signed since the wire log was emptied. */
  readonly signed: () => number;
}

/** A client of `name` with its own key pair, connected through the engine, one call answered, its GET answered; then the wire log and counters emptied. */
async function open(name: DpopCompositionName): Promise<Opened> {
  rs.reset();
  const provider = new DpopOAuthClientProvider(await obtainFirstTokens(as, rs.url), await DpopSession.create());
  const client = await within(DPOP_COMPOSITIONS[name]({ url: rs.url, provider }), CALL_CAP_MS, 'connect');
  expect(await within(client.echo('warm'), CALL_CAP_MS, 'first call')).toBe('echo: warm');
  // The SDK's standalone GET (405 here) goes out on its own after connect: answered before the log is emptied.
  await within(rs.whenLogged((e) => e.http === 'GET'), CALL_CAP_MS, 'the SDK\'s GET');
  expect(rs.wire.every((e) => e.verdict === 'accepted'), renderDpopWire(rs.wire).join('\n')).toBe(true);
  rs.reset();
  as.resetCounters();
  const before = provider.proofsSigned;
  return { client, provider, signed: () => provider.proofsSigned - before };
}

async function closeQuietly(opened: Opened | undefined, what: string): Promise<void> {
  if (process.env.AUTH_TRACE) console.log(`${what}\n  ${renderDpopWire(rs.wire).join('\n  ')}\n  engine events: ${opened?.client.events.join(' ')}`);
  if (opened) await settle(opened.client.close(), CALL_CAP_MS, 'close');
}

/** Every request carried exactly one proof, with the DPoP scheme, accepted, and no `jti` twice. */
function expectOwnProofs(wire: readonly DpopWireEntry[]): void {
  const trace = renderDpopWire(wire).join('\n');
  expect(wire.filter((e) => e.verdict !== 'accepted' || e.proofs !== 1 || e.scheme !== 'DPoP'), trace).toEqual([]);
  expect(new Set(wire.map((e) => e.proof)).size, trace).toBe(wire.length);
}

describe('the DPoP resource server', () => {
  it('refuses a proof for another method, another URL or another token, a forged one, none, the Bearer scheme, and a jti seen before', async () => {
    const { tokens } = await obtainFirstTokens(as, rs.url);
    const session = await DpopSession.create();
    const token = tokens.access_token;
    const send = (authorization: string, proof?: string) =>
      fetch(rs.url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(proof ? { dpop: proof } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    const good = await session.buildProof({ htm: 'POST', htu: rs.url, accessToken: token });
    const forged = `${good.slice(0, good.lastIndexOf('.'))}.${Buffer.alloc(64).toString('base64url')}`;
    rs.reset();
    const answers = [
      await send(`DPoP ${token}`, await session.buildProof({ htm: 'GET', htu: rs.url, accessToken: token })),
      await send(`DPoP ${token}`, await session.buildProof({ htm: 'POST', htu: 'http://127.0.0.1:1/mcp', accessToken: token })),
      await send(`DPoP ${token}`, await session.buildProof({ htm: 'POST', htu: rs.url, accessToken: 'another token' })),
      await send(`DPoP ${token}`, forged),
      await send(`DPoP ${token}`),
      await send(`Bearer ${token}`, good),
      await send(`DPoP ${token}`, good), // accepted: on to the MCP server, which wants a session for a ping
      await send(`DPoP ${token}`, good),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401, 400, 401]);
    expect(answers.at(-1)!.headers.get('www-authenticate')).toBe('DPoP error="invalid_dpop_proof", error_description="reused jti", algs="ES256"');
    await Promise.all(answers.map((a) => a.body?.cancel()));
    expect(rs.wire.map((e) => e.verdict)).toEqual([
      'htm GET is not POST', `htu http://127.0.0.1:1/mcp is not ${rs.url}`, 'ath does not match the access token', 'bad signature', 'no proof',
      'not the DPoP scheme', 'accepted', 'reused jti',
    ]);
  });
});

describe('DPoP inside the engine: every request on the wire carries its own proof', () => {
  describe.each(INSIDE)('%s', (name) => {
    it('a session loss: the call is answered; its 404, the re-initialization and the replay each carry a new proof', async () => {
      let opened: Opened | undefined;
      try {
        opened = await open(name);
        await rs.dropSessions();
        expect(await within(opened.client.echo('after the loss'), CALL_CAP_MS, 'call')).toBe('echo: after the loss');
        expect(renderDpopWire(rs.wire)).toEqual([
          'POST tools/call session=sent proof=p1 accepted → 404',
          'POST initialize session=none proof=p2 accepted → 200',
          'POST notifications/initialized session=sent proof=p3 accepted → 202',
          'POST tools/call session=sent proof=p4 accepted → 200',
        ]);
        expectOwnProofs(rs.wire);
        // B1 signs each request the engine sends; B2 also signed one for the SDK's request outside
        // the engine, which the inner layer replaced (one `DPoP` header on the wire, never that one).
        expect(opened.signed()).toBe(name.startsWith('B1') ? 4 : 5);
        expect(as.counters.refreshGrants).toBe(0);
      } finally {
        await closeQuietly(opened, `${name}: session loss`);
      }
    });

    it(`${CONCURRENT_CALLS} concurrent calls meeting a session loss: all answered, one re-initialization, no jti twice`, async () => {
      let opened: Opened | undefined;
      try {
        opened = await open(name);
        await rs.dropSessions();
        const texts = Array.from({ length: CONCURRENT_CALLS }, (_, i) => `call ${i}`);
        const outcomes = await Promise.all(texts.map((text) => settle(opened!.client.echo(text), CALL_CAP_MS, text)));
        expect(outcomes.map((o) => (o.ok ? o.value : String(o.error)))).toEqual(texts.map((text) => `echo: ${text}`));
        expectOwnProofs(rs.wire);
        const count = (rpc: string, status: number) => rs.wire.filter((e) => e.rpc === rpc && e.status === status).length;
        expect([count('tools/call', 404), count('initialize', 200), count('notifications/initialized', 202), count('tools/call', 200)]).toEqual([CONCURRENT_CALLS, 1, 1, CONCURRENT_CALLS]);
        expect(rs.wire.length).toBe(2 * CONCURRENT_CALLS + 2);
      } finally {
        await closeQuietly(opened, `${name}: ${CONCURRENT_CALLS} concurrent calls, session loss`);
      }
    });

    it('a 429 (Retry-After: 0) on a tools/call: the engine\'s retry carries a new proof and is answered', async () => {
      let opened: Opened | undefined;
      try {
        opened = await open(name);
        rs.rateLimitNext('tools/call');
        expect(await within(opened.client.echo('rate limited once'), CALL_CAP_MS, 'call')).toBe('echo: rate limited once');
        expect(renderDpopWire(rs.wire)).toEqual([
          'POST tools/call session=sent proof=p1 accepted → 429',
          'POST tools/call session=sent proof=p2 accepted → 200',
        ]);
        expectOwnProofs(rs.wire);
      } finally {
        await closeQuietly(opened, `${name}: 429`);
      }
    });
  });
});

describe('DPoP outside the engine: what the engine sends again carries no proof (it cannot sign one, and never re-sends a spent one)', () => {
  it(`${A1}, session loss: the re-initialization goes without a proof; the app gets the SDK's "401 after re-authentication"`, async () => {
    let opened: Opened | undefined;
    try {
      opened = await open(A1);
      await rs.dropSessions();
      const outcome = await settle(opened.client.echo('after the loss'), CALL_CAP_MS, 'call');
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.error).toBeInstanceOf(SdkHttpError);
        expect((outcome.error as Error).message).toBe('Server returned 401 after re-authentication');
      }
      // The 404 carried the SDK's proof (p1). The engine's initialize carries no proof (it cannot
      // sign one, and the client's first initialize's is spent): refused. The 401 goes to the
      // call; the SDK refreshes the token (a refresh nothing needed) and sends the call again with
      // a new proof, which the engine never sends: the session is still dead, its
      // re-initialization goes first, without a proof again: refused, and the SDK gives up.
      expect(renderDpopWire(rs.wire)).toEqual([
        'POST tools/call session=sent proof=p1 accepted → 404',
        'POST initialize session=none proof=- no proof → 401',
        'POST initialize session=none proof=- no proof → 401',
      ]);
      expect(as.counters.refreshGrants).toBe(1);
    } finally {
      await closeQuietly(opened, `${A1}: session loss`);
    }
  });

  it(`${A1}, 429: the retry goes without a proof (refused); the SDK refreshes needlessly, and its own retry is answered`, async () => {
    let opened: Opened | undefined;
    try {
      opened = await open(A1);
      rs.rateLimitNext('tools/call');
      expect(await within(opened.client.echo('rate limited once'), CALL_CAP_MS, 'call')).toBe('echo: rate limited once');
      expect(renderDpopWire(rs.wire)).toEqual([
        'POST tools/call session=sent proof=p1 accepted → 429',
        'POST tools/call session=sent proof=- no proof → 401',
        'POST tools/call session=sent proof=p2 accepted → 200',
      ]);
      expect(as.counters.refreshGrants).toBe(1);
    } finally {
      await closeQuietly(opened, `${A1}: 429`);
    }
  });

  it(`${A2}, session loss: the re-initialization goes without a proof; the app gets UnauthorizedError`, async () => {
    let opened: Opened | undefined;
    try {
      opened = await open(A2);
      await rs.dropSessions();
      const outcome = await settle(opened.client.echo('after the loss'), CALL_CAP_MS, 'call');
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error).toBeInstanceOf(UnauthorizedError);
      expect(renderDpopWire(rs.wire)).toEqual([
        'POST tools/call session=sent proof=p1 accepted → 404',
        'POST initialize session=none proof=- no proof → 401',
      ]);
    } finally {
      await closeQuietly(opened, `${A2}: session loss`);
    }
  });

  it(`${A2}, 429: the retry goes without a proof; the app gets UnauthorizedError (its next call, a new proof, is answered)`, async () => {
    let opened: Opened | undefined;
    try {
      opened = await open(A2);
      rs.rateLimitNext('tools/call');
      const outcome = await settle(opened.client.echo('rate limited once'), CALL_CAP_MS, 'call');
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error).toBeInstanceOf(UnauthorizedError);
      expect(await within(opened.client.echo('next'), CALL_CAP_MS, 'next call')).toBe('echo: next');
      expect(renderDpopWire(rs.wire)).toEqual([
        'POST tools/call session=sent proof=p1 accepted → 429',
        'POST tools/call session=sent proof=- no proof → 401',
        'POST tools/call session=sent proof=p2 accepted → 200',
      ]);
    } finally {
      await closeQuietly(opened, `${A2}: 429`);
    }
  });
});
