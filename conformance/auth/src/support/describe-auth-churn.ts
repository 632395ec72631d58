import { createResilientFetch } from '@mcp-resilience/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAsTheApplication } from './app-refresh.ts';
import type { AuthedClient, ClientFlavour } from './authed-client.ts';
import { obtainFirstTokens } from './first-tokens.ts';
import { MemoryOAuthClientProvider } from './memory-oauth-client-provider.ts';
import { standaloneGetAfterInitialized, type CheckOrder, type ProtectedMcpServer } from './protected-mcp-server.ts';
import { CHECK_ORDERS, startAuthTestBed, type AuthTestBed } from './test-bed.ts';
import { settle, within } from './within.ts';

/** Resolves once `done` holds, looking each turn of the event loop (a hang guard stops it; the `within` around it reports). */
const until = async (done: () => boolean): Promise<void> => {
  for (let turns = 0; !done(); turns++) {
    if (turns > 1_000_000) throw new Error('hung: the condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
};
import { renderWire } from './wire-log.ts';

/** A cap on one call: far above what it takes on loopback (milliseconds). */
const CALL_CAP_MS = 10_000;
const CONCURRENT_CALLS = 20;
/** A cap on a call that should be refused at once (milliseconds), far below the engine's request deadline here. */
const REFUSAL_CAP_MS = 10_000;
/** The engine's request deadline here: a call held for credentials that never come would outlast every cap. */
const HOLD_BEYOND_CAP_MS = 120_000;

/** What a flavour was seen to do with 20 concurrent calls meeting a lost session and an expired token. */
export interface ConcurrentFigures {
  /** Refresh grants the authorization server served, per order. */
  readonly refreshGrants: Readonly<Record<CheckOrder, number>>;
}

/** The wire of scenario (a), one call after a pause, in each order: `old` and `fresh` are the access tokens. */
const ONE_CALL_TRACE: Readonly<Record<CheckOrder, (old: string, fresh: string) => string[]>> = {
  'auth-first': (old, fresh) => [
    `POST tools/call session=dead token=${old} → 401`,
    'POST /token refresh_token session=none token=- → 200',
    `POST tools/call session=dead token=${fresh} → 404`,
    `POST initialize session=none token=${fresh} → 200`,
    `POST notifications/initialized session=live token=${fresh} → 202`,
    `POST tools/call session=live token=${fresh} → 200`,
  ],
  'session-first': (old, fresh) => [
    `POST tools/call session=dead token=${old} → 404`,
    `POST initialize session=none token=${old} → 401`,
    'POST /token refresh_token session=none token=- → 200',
    `POST initialize session=none token=${fresh} → 200`,
    `POST notifications/initialized session=live token=${fresh} → 202`,
    `POST tools/call session=live token=${fresh} → 200`,
  ],
};

interface Opened {
  readonly client: AuthedClient;
  readonly credentials: MemoryOAuthClientProvider;
}

/**
 * The scenarios of credentials across churn for one client flavour, in both check orders, each
 * through the engine (`createResilientFetch()` as the transport's `fetch`): (a) session and token
 * both gone after a pause, (b) 20 concurrent calls meeting both, (c) a token that cannot be
 * refreshed, (d) a token the application refreshed before the loss. Asserts answers, refresh
 * grants, initialize requests accepted and refused, and what each re-initialization carried.
 *
 * @example
 * describeAuthChurn(SDK1_OAUTH, { refreshGrants: { 'auth-first': 1, 'session-first': 1 } });
 */
export function describeAuthChurn(flavour: ClientFlavour, concurrent: ConcurrentFigures): void {
  describe(flavour.name, () => {
    let bed: AuthTestBed;
    beforeAll(async () => {
      bed = await startAuthTestBed();
    });
    afterAll(() => bed?.close());

    /** The `tools/call` requests the client handed the engine, whether or not the engine sent them yet. */
    let handedCalls = 0;

    /** A connected client through the engine, one call answered, counters zeroed. */
    async function open(server: ProtectedMcpServer): Promise<Opened> {
      server.reset(); // this connection's exchanges only
      const credentials = new MemoryOAuthClientProvider(await obtainFirstTokens(bed.as, server.url));
      const engine = createResilientFetch({ requestDeadlineMs: HOLD_BEYOND_CAP_MS, renewsCredentials: true });
      const fetch = ((input: RequestInfo | URL, init?: RequestInit) => ((handedCalls += +String(init?.body).includes('"tools/call"')), engine(input, init))) as typeof globalThis.fetch;
      const client = await within(flavour.connect({ url: server.url, credentials, authorizationServer: bed.as, fetch }), CALL_CAP_MS, 'connect');
      expect(await within(client.echo('warm'), CALL_CAP_MS, 'first call')).toBe('echo: warm');
      // The client's standalone GET (405 here) goes out on its own once connected: logged before the log is emptied.
      await within(server.whenLogged(standaloneGetAfterInitialized()), CALL_CAP_MS, 'the client\'s standalone GET');
      server.reset();
      bed.as.resetCounters();
      return { client, credentials };
    }

    async function closeQuietly(client: AuthedClient): Promise<void> {
      await settle(client.close(), CALL_CAP_MS, 'close');
    }

    /** Session and token both gone after a pause. */
    async function pause(server: ProtectedMcpServer): Promise<void> {
      await server.dropSessions();
      bed.as.expireAccessTokens();
    }

    describe.each(CHECK_ORDERS)('%s', (order) => {
      it('(a) session and token both gone after a pause: the next call is answered, after exactly one refresh', async () => {
        const server = bed.servers[order];
        const { client, credentials } = await open(server);
        try {
          const old = credentials.tokens()!.access_token;
          await pause(server);
          expect(await within(client.echo('after the pause'), CALL_CAP_MS, 'call')).toBe('echo: after the pause');
          const fresh = credentials.tokens()!.access_token;
          expect(renderWire(server.wire)).toEqual(ONE_CALL_TRACE[order](old, fresh));
          expect(bed.as.counters.refreshGrants).toBe(1);
          expect(server.counters.initializeAccepted).toBe(1);
          // Auth first: the call's own 401 drives the refresh, the re-initialization already has the new token.
          // Session first: the engine's re-initialization is the request refused 401; that 401 drives the refresh.
          expect(server.counters.initializeRefused).toBe(order === 'auth-first' ? 0 : 1);
        } finally {
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} ${order} (a)\n  ${renderWire(server.wire).join('\n  ')}`);
          await closeQuietly(client);
        }
      });

      it(`(b) ${CONCURRENT_CALLS} concurrent calls meeting both: all answered, one successful re-initialization`, async () => {
        const server = bed.servers[order];
        const { client } = await open(server);
        try {
          await pause(server);
          const texts = Array.from({ length: CONCURRENT_CALLS }, (_, i) => `call ${i}`);
          const outcomes = await Promise.all(texts.map((text) => settle(client.echo(text), CALL_CAP_MS, text)));
          const failures = outcomes.flatMap((o) => (o.ok ? [] : [String(o.error)]));
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} ${order} (b) refreshGrants=${bed.as.counters.refreshGrants} refused=${bed.as.counters.refusedRefreshGrants} failures=${failures.length} ${failures[0] ?? ''}`);
          expect(failures).toEqual([]);
          expect(outcomes.map((o) => (o.ok ? o.value : undefined))).toEqual(texts.map((text) => `echo: ${text}`));
          expect(server.counters.initializeAccepted).toBe(1);
          expect(bed.as.counters.refreshGrants).toBe(concurrent.refreshGrants[order]);
        } finally {
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} ${order} (b)\n  ${renderWire(server.wire).join('\n  ')}`);
          await closeQuietly(client);
        }
      });

      it(`(b2) ${CONCURRENT_CALLS} calls meeting both, half of them begun while the refresh is under way: all answered, one refresh`, async () => {
        const server = bed.servers[order];
        const { client } = await open(server);
        try {
          await pause(server);
          const refresh = bed.as.holdNextRefresh();
          const half = CONCURRENT_CALLS / 2;
          const texts = Array.from({ length: CONCURRENT_CALLS }, (_, i) => `call ${i}`);
          const first = texts.slice(0, half).map((text) => settle(client.echo(text), CALL_CAP_MS, text));
          await within(refresh.started, CALL_CAP_MS, 'the refresh');
          const handed = handedCalls;
          const during = texts.slice(half).map((text) => settle(client.echo(text), CALL_CAP_MS, text));
          // Each of them reached the engine (with the old token) while the refresh was held.
          await within(until(() => handedCalls >= handed + half), CALL_CAP_MS, 'the calls begun during the refresh');
          refresh.release();
          const outcomes = await Promise.all([...first, ...during]);
          expect(outcomes.flatMap((o) => (o.ok ? [] : [String(o.error)]))).toEqual([]);
          expect(outcomes.map((o) => (o.ok ? o.value : undefined))).toEqual(texts.map((text) => `echo: ${text}`));
          expect(bed.as.counters.refreshGrants).toBe(1);
          expect(server.counters.initializeAccepted).toBe(1);
        } finally {
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} ${order} (b2)\n  ${renderWire(server.wire).join('\n  ')}`);
          await closeQuietly(client);
        }
      });

      it('(c) a token that cannot be refreshed: the application gets the SDK\'s own auth error, once, and nothing hangs', async () => {
        const server = bed.servers[order];
        const { client } = await open(server);
        try {
          bed.as.revokeRefreshTokens();
          await pause(server);
          const outcome = await settle(client.echo('no way in'), CALL_CAP_MS, 'call');
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} ${order} (c) ${outcome.ok ? 'answered' : `${(outcome.error as Error).name}: ${(outcome.error as Error).message}`}`);
          expect(outcome.ok).toBe(false);
          if (!outcome.ok) expect(flavour.isAuthError(outcome.error), String(outcome.error)).toBe(true);
          expect(bed.as.counters.refreshGrants).toBe(0);
          expect(bed.as.counters.refusedRefreshGrants).toBeGreaterThanOrEqual(1);
          expect(server.counters.initializeAccepted).toBe(0);
          // The application's next call (with the refused token, or none where its SDK dropped the tokens)
          // is refused too, at once: not held until the engine's request deadline waiting for new credentials.
          const next = await settle(client.echo('again'), REFUSAL_CAP_MS, 'next call');
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} ${order} (c) next: ${next.ok ? 'answered' : String(next.error)}`);
          expect(next.ok).toBe(false);
          if (!next.ok) expect(flavour.isAuthError(next.error), String(next.error)).toBe(true);
          expect(server.counters.initializeAccepted).toBe(0);
        } finally {
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} ${order} (c)\n  ${renderWire(server.wire).join('\n  ')}`);
          await closeQuietly(client);
        }
      });

      it('(d) a token the application refreshed before the loss: the re-initialization carries the new token, never the old', async () => {
        const server = bed.servers[order];
        const { client, credentials } = await open(server);
        try {
          const old = credentials.tokens()!.access_token;
          bed.as.expireAccessTokens();
          const fresh = await refreshAsTheApplication(credentials, bed.as);
          bed.as.resetCounters();
          await server.dropSessions();
          expect(await within(client.echo('after the refresh'), CALL_CAP_MS, 'call')).toBe('echo: after the refresh');
          expect(fresh).not.toBe(old);
          expect(server.initializeTokens()).toEqual([`${fresh} → 200`]);
          expect(server.wire.filter((e) => e.token === old)).toEqual([]);
          expect(bed.as.counters.refreshGrants).toBe(0);
        } finally {
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} ${order} (d)\n  ${renderWire(server.wire).join('\n  ')}`);
          await closeQuietly(client);
        }
      });
    });
  });
}
