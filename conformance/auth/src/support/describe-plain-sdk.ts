import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthedClient, ClientFlavour } from './authed-client.ts';
import { obtainFirstTokens } from './first-tokens.ts';
import { MemoryOAuthClientProvider } from './memory-oauth-client-provider.ts';
import { standaloneGetAfterInitialized, type ProtectedMcpServer } from './protected-mcp-server.ts';
import { startAuthTestBed, type AuthTestBed } from './test-bed.ts';
import { settle, within } from './within.ts';
import { renderWire } from './wire-log.ts';

const CALL_CAP_MS = 10_000;
const CONCURRENT_CALLS = 20;

/** What the plain SDK (no engine) was seen to do. */
export interface PlainExpectations {
  /** Whether `error` is what this SDK throws on a 404 to a call on a dead session. */
  readonly isSessionGoneError: (error: unknown) => boolean;
  /**
   * With 20 concurrent calls on a live session meeting an expired token (20 × 401): `all answered`
   * (the SDK shares its refreshes among them) or `some refused` (each 401 runs its own refresh;
   * with rotating refresh tokens those that lose the race are refused, and their calls fail with
   * auth errors). How many refreshes either takes depends on how the 401s interleave: not asserted.
   */
  readonly concurrent401s?: 'all answered' | 'some refused';
  /** Whether `error` is how a call fails when its refresh lost the race (default: the flavour's auth error). */
  readonly isRefusedError?: (error: unknown) => boolean;
}

/**
 * What the SDK does without the engine, for the record: (e) session and token both gone after a
 * pause, session-first order: the call fails on the 404 and nothing is refreshed; and, when
 * `concurrent401s` is given, what it does with 20 concurrent 401s on a live session.
 *
 * @example
 * describePlainSdk(SDK1_OAUTH, { isSessionGoneError: (e) => e instanceof StreamableHTTPError && e.code === 404, concurrent401s: 'some refused' });
 */
export function describePlainSdk(flavour: ClientFlavour, expectations: PlainExpectations): void {
  describe(`${flavour.name}, plain (no engine)`, () => {
    let bed: AuthTestBed;
    beforeAll(async () => {
      bed = await startAuthTestBed();
    });
    afterAll(() => bed?.close());

    async function open(server: ProtectedMcpServer): Promise<AuthedClient> {
      server.reset(); // this connection's exchanges only
      const credentials = new MemoryOAuthClientProvider(await obtainFirstTokens(bed.as, server.url));
      const client = await within(flavour.connect({ url: server.url, credentials, authorizationServer: bed.as, fetch: globalThis.fetch }), CALL_CAP_MS, 'connect');
      expect(await within(client.echo('warm'), CALL_CAP_MS, 'first call')).toBe('echo: warm');
      // The client's standalone GET (405 here) goes out on its own once connected: logged before the log is emptied.
      await within(server.whenLogged(standaloneGetAfterInitialized()), CALL_CAP_MS, 'the client\'s standalone GET');
      server.reset();
      bed.as.resetCounters();
      return client;
    }

    it('(e) session-first, session and token both gone after a pause: the call fails on the 404, nothing refreshed, no new session', async () => {
      const server = bed.servers['session-first'];
      const client = await open(server);
      try {
        await server.dropSessions();
        bed.as.expireAccessTokens();
        const outcome = await settle(client.echo('after the pause'), CALL_CAP_MS, 'call');
        if (process.env.AUTH_TRACE) console.log(`${flavour.name} plain (e): ${outcome.ok ? 'answered' : String(outcome.error)}\n  ${renderWire(server.wire).join('\n  ')}`);
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(expectations.isSessionGoneError(outcome.error), String(outcome.error)).toBe(true);
        expect(renderWire(server.wire)[0]).toMatch(/^POST tools\/call session=dead token=at-\d+ → 404$/);
        expect(server.counters.initializeAccepted + server.counters.initializeRefused).toBe(0);
        expect(bed.as.counters.refreshGrants).toBe(0);
      } finally {
        await settle(client.close(), CALL_CAP_MS, 'close');
      }
    });

    const concurrent = expectations.concurrent401s;
    if (concurrent) {
      it(`20 concurrent calls on a live session meeting an expired token: ${concurrent}`, async () => {
        const server = bed.servers['auth-first'];
        const client = await open(server);
        try {
          bed.as.expireAccessTokens();
          const outcomes = await Promise.all(Array.from({ length: CONCURRENT_CALLS }, (_, i) => settle(client.echo(`call ${i}`), CALL_CAP_MS, `call ${i}`)));
          const failures = outcomes.flatMap((o) => (o.ok ? [] : [o.error]));
          if (process.env.AUTH_TRACE) console.log(`${flavour.name} plain, 20 × 401: refreshGrants=${bed.as.counters.refreshGrants} refused=${bed.as.counters.refusedRefreshGrants} failures=${failures.length}`);
          expect(server.wire.filter((e) => e.rpc === 'tools/call' && e.status === 401)).toHaveLength(CONCURRENT_CALLS);
          if (concurrent === 'all answered') {
            expect(failures).toEqual([]);
            expect(bed.as.counters.refreshGrants).toBeGreaterThanOrEqual(1);
          } else {
            // How many fail depends on how the refreshes interleave: at least one, each with an auth error.
            expect(failures.length).toBeGreaterThanOrEqual(1);
            const refused = expectations.isRefusedError ?? flavour.isAuthError;
            for (const error of failures) expect(refused(error), String(error)).toBe(true);
          }
        } finally {
          await settle(client.close(), CALL_CAP_MS, 'close');
        }
      });
    }
  });
}
