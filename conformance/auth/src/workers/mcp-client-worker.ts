// The client Worker: one Durable Object per user holds an official SDK 1.x client through
// `durableClient` of `@mcp-resilience/cloudflare` (the engine in front of the SDK transport), with
// the SDK's own `OAuthClientProvider` machinery: on a 401 the SDK runs `auth()`, which refreshes
// at the provider's real `/token`. The server Worker is reached by a service binding (`SERVER`).
// The test drives it with `POST /<user>/<op>`; an error crosses back as its name, message and code.
import { durableClient, type DurableClient } from '@mcp-resilience/cloudflare';
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { DurableObjectNamespaceLike, DurableObjectStateLike, Fetcher } from './workerd-types.ts';

interface Env {
  readonly SERVER: Fetcher;
  readonly USERS: DurableObjectNamespaceLike;
}

/** The MCP endpoint's URL (any host: the service binding carries it to the server Worker). */
const MCP_URL = 'http://127.0.0.1/mcp';
const REDIRECT_URL = 'http://127.0.0.1:8976/callback'; // never opened: the code is read from the redirect

/** A call's outcome as the test sees it. */
export type CallOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly name: string; readonly message: string; readonly code?: string | number; readonly unauthorized?: true };

/** What `/state` answers: the client side's counts. */
export interface ClientState {
  readonly clientId: string | undefined;
  /** Tokens the SDK saved (the first from the code, then one per refresh). */
  readonly tokensSaved: number;
  /** Times the SDK asked for an interactive authorization after the first. */
  readonly redirects: number;
}

/**
 * An `OAuthClientProvider` that keeps everything in memory and, while `interactive`, approves an
 * authorization by following the server's redirect itself (the server auto-approves). Outside of
 * that it only counts the SDK asking: no user is there to sign in again.
 */
class MemoryOAuthProvider implements OAuthClientProvider {
  interactive = false;
  code: string | undefined;
  tokensSaved = 0;
  redirects = 0;
  private client: OAuthClientInformationMixed | undefined;
  private current: OAuthTokens | undefined;
  private verifier = '';

  constructor(private readonly server: Fetcher) {}

  get redirectUrl(): string { return REDIRECT_URL; }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'workers-auth-conformance', redirect_uris: [REDIRECT_URL], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() { return this.client; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.client = info; }
  tokens() { return this.current; }
  saveTokens(tokens: OAuthTokens) { this.current = tokens; this.tokensSaved += 1; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.current = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.interactive) { this.redirects += 1; return; }
    const answer = await this.server.fetch(url.href, { redirect: 'manual' });
    const location = answer.headers.get('location');
    this.code = location ? new URL(location).searchParams.get('code') ?? undefined : undefined;
    if (!this.code) throw new Error(`authorize answered ${answer.status} without a code: ${await answer.text()}`);
  }
  clientId(): string | undefined { return this.client?.client_id; }
}

function outcomeOf(error: unknown): CallOutcome {
  const e = error as { name?: string; message?: string; code?: string | number };
  return {
    ok: false, name: e?.name ?? 'Error', message: String(e?.message ?? error), ...(e?.code === undefined ? {} : { code: e.code }),
    // The SDK's UnauthorizedError keeps the name "Error": told apart by its class, here where the class is.
    ...(error instanceof UnauthorizedError ? { unauthorized: true as const } : {}),
  };
}

/**
 * One user (a Durable Object): its OAuth client, its tokens and its MCP client, for all of its
 * requests. Ops: `sign-in`, `call?n=`, `refresh`, `state`.
 *
 * @example
 * // from the test, through the Worker's default handler:
 * await mf.dispatchFetch('http://127.0.0.1/alice/sign-in', { method: 'POST' });
 * await mf.dispatchFetch('http://127.0.0.1/alice/call?n=20', { method: 'POST' }); // [{ ok: true, text: 'call-0' }, …]
 */
export class McpUser {
  private readonly oauth: MemoryOAuthProvider;
  private readonly mcp: DurableClient;
  private readonly serverFetch: typeof fetch;

  constructor(state: DurableObjectStateLike, env: Env) {
    // The engine's own fetch (and the SDK's discovery and /token requests through it) go over the binding.
    this.serverFetch = ((input: RequestInfo | URL, init?: RequestInit) => env.SERVER.fetch(input, init)) as typeof fetch;
    this.oauth = new MemoryOAuthProvider(env.SERVER);
    this.mcp = durableClient(state as never, MCP_URL, {
      fetch: this.serverFetch, transportOptions: { authProvider: this.oauth },
      // Beyond the test's cap: a call held for credentials that never come would fail the test, not pass late.
      requestDeadlineMs: 120_000,
    });
  }

  /** Signs in (register, authorize, code for tokens) and opens the MCP session. */
  private async signIn(): Promise<Response> {
    this.oauth.interactive = true;
    try {
      const first = await auth(this.oauth, { serverUrl: MCP_URL, fetchFn: this.serverFetch });
      if (first !== 'REDIRECT' || !this.oauth.code) throw new Error(`expected a redirect, got ${first}`);
      const second = await auth(this.oauth, { serverUrl: MCP_URL, authorizationCode: this.oauth.code, fetchFn: this.serverFetch });
      if (second !== 'AUTHORIZED') throw new Error(`expected AUTHORIZED, got ${second}`);
    } finally {
      this.oauth.interactive = false;
    }
    const { tools } = await (await this.mcp.client()).listTools();
    return Response.json({ clientId: this.oauth.clientId(), tools: tools.map((t) => t.name) });
  }

  /** `n` concurrent `echo` calls, each settled on its own. */
  private async calls(n: number): Promise<Response> {
    const client = await this.mcp.client();
    const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => client.callTool({ name: 'echo', arguments: { text: `call-${i}` } })));
    const outcomes: CallOutcome[] = settled.map((s) => {
      if (s.status === 'rejected') return outcomeOf(s.reason);
      const content = (s.value as { content?: { text?: string }[] }).content;
      return { ok: true, text: content?.[0]?.text ?? '' };
    });
    return Response.json(outcomes);
  }

  /** Refreshes now, as a client that refreshes ahead of expiry does (the SDK's `auth()` with a refresh token). */
  private async refresh(): Promise<Response> {
    const result = await auth(this.oauth, { serverUrl: MCP_URL, fetchFn: this.serverFetch });
    return Response.json({ result });
  }

  async fetch(request: Request): Promise<Response> {
    const op = new URL(request.url).pathname.split('/')[2];
    const n = Number(new URL(request.url).searchParams.get('n') ?? '1');
    try {
      switch (op) {
        case 'sign-in': return await this.signIn();
        case 'call': return await this.calls(n);
        case 'refresh': return await this.refresh();
        case 'state':
          return Response.json({ clientId: this.oauth.clientId(), tokensSaved: this.oauth.tokensSaved, redirects: this.oauth.redirects } satisfies ClientState);
        default: return new Response('no such op', { status: 404 });
      }
    } catch (error) {
      return Response.json(outcomeOf(error), { status: 500 });
    }
  }
}

export default {
  /** `POST /<user>/<op>` goes to that user's object. */
  async fetch(request: Request, env: Env): Promise<Response> {
    const user = new URL(request.url).pathname.split('/')[1] ?? '';
    return env.USERS.get(env.USERS.idFromName(user)).fetch(request);
  },
};
