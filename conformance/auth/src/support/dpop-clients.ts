import { createResilientFetch, type ResilienceEvent, type ResilientFetch } from '@mcp-resilience/node';
import {
  Client, DpopSession, StreamableHTTPClientTransport, withDpop, withDpopFromProvider, type AuthProvider, type OAuthClientProvider, type OAuthTokens,
} from '@modelcontextprotocol/client';
import { textOf, type AuthedClient } from './authed-client.ts';
import type { FirstTokens } from './first-tokens.ts';
import { MemoryOAuthClientProvider } from './memory-oauth-client-provider.ts';

/**
 * An application's `OAuthClientProvider` for a DPoP-protected resource: {@link MemoryOAuthClientProvider}
 * with `dpop()` (one {@link DpopSession}: one key pair for the client's lifetime), whose tokens say
 * `token_type: "DPoP"`, as those of an authorization server issuing DPoP-bound tokens do (the
 * test's authorization server says `bearer`; whether the token is bound to the key, `cnf.jkt`, is
 * beside the point here: the proofs are). The SDK presents a `DPoP` token with the `DPoP` scheme
 * and a proof per request only when `token_type` says so.
 *
 * @example
 * const provider = new DpopOAuthClientProvider(await obtainFirstTokens(as, rs.url), await DpopSession.create());
 * withDpopFromProvider(provider as OAuthClientProvider)(globalThis.fetch);
 * provider.proofsSigned; // 1 after one request
 */
export class DpopOAuthClientProvider extends MemoryOAuthClientProvider {
  /** Proofs its session signed, sent or not (a DPoP layer whose proof another layer replaced signed one for nothing). */
  proofsSigned = 0;

  constructor(first: FirstTokens, readonly session: DpopSession) {
    super({ ...first, tokens: { ...first.tokens, token_type: 'DPoP' } });
    const sign = session.buildProof.bind(session);
    session.buildProof = (request) => {
      this.proofsSigned++;
      return sign(request);
    };
  }

  dpop(): DpopSession {
    return this.session;
  }

  override saveTokens(tokens: OAuthTokens): void {
    super.saveTokens({ ...tokens, token_type: 'DPoP' });
  }
}

/** Where the DPoP layer sits relative to the engine. */
export type DpopCompositionName =
  | 'A1 outside: transport authProvider with dpop(), fetch: engine'
  | 'A2 outside: fetch: withDpop(session, getToken)(engine), authProvider { token }'
  | 'B1 inside: fetch: engine over withDpop(session, getToken)(fetch), authProvider { token }'
  | 'B2 inside and outside: transport authProvider with dpop(), fetch: engine over withDpopFromProvider(provider)(fetch)';

/** A client of one composition, its engine's events, and its engine to close. */
export interface DpopClient extends AuthedClient {
  /** The engine's events (`type` only), in order. */
  readonly events: readonly string[];
}

/** What every composition is built from: the server's URL, the application's credentials (and DPoP session). */
export interface DpopSetup {
  readonly url: string;
  readonly provider: DpopOAuthClientProvider;
}

/**
 * The engine, its events noted; a long request deadline (a hold would outlast every cap of the
 * tests). `renews`: the transport's provider renews refused credentials (an `OAuthClientProvider`;
 * a `{ token }` provider cannot).
 */
function engine(events: string[], renews: boolean, fetch?: typeof globalThis.fetch): ResilientFetch {
  const onEvent = (event: ResilienceEvent) => void events.push(event.type);
  return createResilientFetch({ requestDeadlineMs: 120_000, renewsCredentials: renews, onEvent, ...(fetch ? { fetch } : {}) });
}

async function connect(url: string, authProvider: AuthProvider | OAuthClientProvider, fetch: typeof globalThis.fetch, engineFetch: ResilientFetch, events: string[]): Promise<DpopClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider, fetch });
  const client = new Client({ name: 'dpop-conformance', version: '0.0.0' });
  await client.connect(transport);
  return {
    events,
    echo: async (text) => textOf(await client.callTool({ name: 'echo', arguments: { text } })),
    close: async () => {
      await client.close();
      await engineFetch.close();
    },
  };
}

/** The application's minimal `AuthProvider`: the SDK sends `Authorization: Bearer <token>`, a DPoP layer below it turns that into `DPoP <token>` + a proof. */
const tokenOnly = (provider: DpopOAuthClientProvider): AuthProvider => ({ token: async () => provider.tokens()?.access_token });
const tokenOf = (provider: DpopOAuthClientProvider) => () => provider.tokens()?.access_token;

/**
 * The four ways to put the SDK 2.x DPoP layer and the engine together, each connected (SDK 2.x
 * `Client` + `StreamableHTTPClientTransport`): A (the DPoP layer outside the engine: a proof is
 * signed once per request the SDK sends, and the engine sends that request again as it is) and B
 * (the DPoP layer inside: the engine's every request, replays and re-initializations too, is
 * signed as it goes out).
 *
 * @example
 * const client = await DPOP_COMPOSITIONS['B1 inside: fetch: engine over withDpop(session, getToken)(fetch), authProvider { token }']({ url, provider });
 * await client.echo('hi'); // 'echo: hi'
 */
export const DPOP_COMPOSITIONS: Readonly<Record<DpopCompositionName, (setup: DpopSetup) => Promise<DpopClient>>> = {
  'A1 outside: transport authProvider with dpop(), fetch: engine': ({ url, provider }) => {
    const events: string[] = [], fetch = engine(events, true);
    // The transport composes withDpopFromProvider(provider) around the engine.
    return connect(url, provider as MemoryOAuthClientProvider & OAuthClientProvider, fetch, fetch, events);
  },
  'A2 outside: fetch: withDpop(session, getToken)(engine), authProvider { token }': ({ url, provider }) => {
    const events: string[] = [], fetch = engine(events, false);
    return connect(url, tokenOnly(provider), withDpop(provider.session, tokenOf(provider))(fetch) as typeof globalThis.fetch, fetch, events);
  },
  'B1 inside: fetch: engine over withDpop(session, getToken)(fetch), authProvider { token }': ({ url, provider }) => {
    const events: string[] = [], fetch = engine(events, false, withDpop(provider.session, tokenOf(provider))(globalThis.fetch) as typeof globalThis.fetch);
    return connect(url, tokenOnly(provider), fetch, fetch, events);
  },
  'B2 inside and outside: transport authProvider with dpop(), fetch: engine over withDpopFromProvider(provider)(fetch)': ({ url, provider }) => {
    const oauth = provider as MemoryOAuthClientProvider & OAuthClientProvider;
    const events: string[] = [], fetch = engine(events, true, withDpopFromProvider(oauth)(globalThis.fetch) as typeof globalThis.fetch);
    return connect(url, oauth, fetch, fetch, events);
  },
};
