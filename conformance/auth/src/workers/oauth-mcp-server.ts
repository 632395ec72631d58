// The server Worker, as Cloudflare's remote MCP servers are built: `@cloudflare/workers-oauth-provider`
// in front (it checks the bearer token first, then hands the request to the MCP handler), an official
// SDK 1.x MCP server behind it on the web-standard Streamable HTTP transport, one per session, the
// sessions in a module-level map. Test-only `/admin/*` routes make the losses happen (no clock is
// waited on) and report counters and the wire as this Worker saw it.
import { OAuthProvider, getOAuthApi, type OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { z } from 'zod';
import type { KvNamespace, WorkerContext } from './workerd-types.ts';

interface Env {
  readonly OAUTH_KV: KvNamespace;
  readonly OAUTH_PROVIDER: OAuthHelpers;
}

/** One exchange as this Worker saw it: tokens and sessions by ordinal, never raw. */
export interface WireEntry {
  readonly method: string;
  readonly path: string;
  readonly rpc?: string;
  /** `t1`, `t2`, … in the order `/token` issued them; `none`, or `unknown` for one this Worker never issued. */
  readonly token: string;
  /** `s1`, `s2`, … in the order sessions were opened; `none`, or `unknown`. */
  readonly session: string;
  /** For `/token`: the grant type asked for, and the label of the access token it issued. */
  readonly grant?: string;
  readonly issued?: string;
  readonly status: number;
}

/** What `/admin/state` answers. */
export interface ServerState {
  readonly refreshGrants: number;
  readonly initialize: { readonly ok: number; readonly unauthorized: number };
  readonly openSessions: number;
  readonly wire: readonly WireEntry[];
}

// ---- the MCP server: one SDK server and transport per session, kept in a module-level map ----

const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

function newServer(): McpServer {
  const server = new McpServer({ name: 'workers-oauth-mcp', version: '1.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

const sessionGone = () => Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });

const mcpHandler = {
  async fetch(request: Request): Promise<Response> {
    if (request.method === 'GET') return new Response(null, { status: 405, headers: { allow: 'POST, DELETE' } }); // no standalone stream
    const id = request.headers.get('mcp-session-id');
    if (request.method === 'DELETE') {
      if (!id || !sessions.has(id)) return sessionGone();
      sessions.delete(id);
      return new Response(null, { status: 200 });
    }
    const body: unknown = await request.json();
    if (id) {
      const transport = sessions.get(id);
      return transport ? transport.handleRequest(request, { parsedBody: body }) : sessionGone();
    }
    if ((body as { method?: unknown }).method !== 'initialize') {
      return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }, { status: 400 });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    await newServer().connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  },
};

// ---- the authorization server: auto-approves, as a user who always clicks "allow" ----

const authorizeHandler = {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname !== '/authorize') return new Response('not found', { status: 404 });
    const authRequest = await env.OAUTH_PROVIDER.parseAuthRequest(request);
    const { redirectTo } = await env.OAUTH_PROVIDER.completeAuthorization({
      request: authRequest, userId: 'user-1', metadata: {}, scope: authRequest.scope, props: { user: 'user-1' },
    });
    return Response.redirect(redirectTo, 302);
  },
};

const options = {
  apiRoute: '/mcp',
  apiHandler: mcpHandler,
  defaultHandler: authorizeHandler,
  authorizeEndpoint: '/authorize',
  tokenEndpoint: '/token',
  clientRegistrationEndpoint: '/register',
  scopesSupported: ['mcp'],
  // http is accepted on a loopback host only: the client reaches this Worker by a service binding, at this URL.
  resourceMetadata: { resource: 'http://127.0.0.1/mcp', authorization_servers: ['http://127.0.0.1'], scopes_supported: ['mcp'] },
  // Long lifetimes: a token ends here because the test revoked it, never because a clock moved.
  accessTokenTTL: 3600,
};
const provider = new OAuthProvider(options as ConstructorParameters<typeof OAuthProvider>[0]);

// ---- the wire, the counters and the admin routes ----

const wire: WireEntry[] = [];
const tokens = new Map<string, string>();
const sessionLabels = new Map<string, string>();
let refreshGrants = 0;
const initialize = { ok: 0, unauthorized: 0 };

const labelOf = (labels: Map<string, string>, value: string | null | undefined) => (value ? labels.get(value) ?? 'unknown' : 'none');
const bearer = (request: Request) => /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];

/** The KV keys under `prefix`, every page (capped). An access token is a `token:` key; a refresh token lives in its `grant:` record. */
async function keysOf(kv: KvNamespace, prefix: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page += 1) {
    const listed = await kv.list({ prefix, ...(cursor ? { cursor } : {}) });
    names.push(...listed.keys.map((k) => k.name));
    if (listed.list_complete || !listed.cursor) break;
    cursor = listed.cursor;
  }
  return names;
}

/** The grants (`userId`, `grantId`) issued to `clientId`. */
async function grantsOf(kv: KvNamespace, clientId: string): Promise<{ userId: string; grantId: string }[]> {
  const found: { userId: string; grantId: string }[] = [];
  for (const key of await keysOf(kv, 'grant:')) {
    const grant = (await kv.get(key, { type: 'json' })) as { clientId?: string } | null;
    const [, userId, grantId] = key.split(':');
    if (grant?.clientId === clientId && userId && grantId) found.push({ userId, grantId });
  }
  return found;
}

async function admin(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  const client = url.searchParams.get('client') ?? '';
  switch (url.pathname) {
    case '/admin/drop-sessions': {
      // As a restart or an eviction: the ids are forgotten, a later request with one gets 404.
      const dropped = sessions.size;
      sessions.clear();
      return Response.json({ dropped });
    }
    case '/admin/expire-tokens': {
      // The client's access tokens stop working (as if expired); its grant, and so its refresh token, stays.
      let expired = 0;
      for (const { userId, grantId } of await grantsOf(env.OAUTH_KV, client)) {
        for (const key of await keysOf(env.OAUTH_KV, `token:${userId}:${grantId}:`)) {
          await env.OAUTH_KV.delete(key);
          expired += 1;
        }
      }
      return Response.json({ expired });
    }
    case '/admin/revoke': {
      // The grant goes, with its access tokens and its refresh token: nothing can be refreshed.
      const helpers = getOAuthApi(options as Parameters<typeof getOAuthApi>[0], env);
      const grants = await grantsOf(env.OAUTH_KV, client);
      for (const { userId, grantId } of grants) await helpers.revokeGrant(grantId, userId);
      return Response.json({ revoked: grants.length });
    }
    case '/admin/state':
      return Response.json({ refreshGrants, initialize, openSessions: sessions.size, wire } satisfies ServerState);
    default:
      return new Response('no such admin route', { status: 404 });
  }
}

/** What a request is, read before the provider consumes it. */
async function describe(request: Request, path: string): Promise<{ rpc?: string; grant?: string }> {
  if (request.method !== 'POST') return {};
  if (path === '/mcp') {
    const body = (await request.clone().json().catch(() => undefined)) as { method?: string } | undefined;
    return body?.method ? { rpc: body.method } : {};
  }
  if (path === '/token') {
    const grant = new URLSearchParams(await request.clone().text()).get('grant_type');
    return grant ? { grant } : {};
  }
  return {};
}

export default {
  async fetch(request: Request, env: Env, ctx: WorkerContext): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/admin/')) return admin(request, env);
    const seen = await describe(request, path);
    const token = labelOf(tokens, bearer(request));
    const session = labelOf(sessionLabels, request.headers.get('mcp-session-id'));
    const response: Response = await provider.fetch(request as never, env as never, ctx as never);
    let issued: string | undefined;
    if (path === '/token' && response.ok) {
      const body = (await response.clone().json()) as { access_token?: string };
      if (body.access_token) tokens.set(body.access_token, (issued = `t${tokens.size + 1}`));
      if (seen.grant === 'refresh_token') refreshGrants += 1;
    }
    if (seen.rpc === 'initialize') {
      if (response.status === 200) initialize.ok += 1;
      if (response.status === 401) initialize.unauthorized += 1;
      const opened = response.headers.get('mcp-session-id');
      if (opened && !sessionLabels.has(opened)) sessionLabels.set(opened, `s${sessionLabels.size + 1}`);
    }
    wire.push({ method: request.method, path, ...seen, ...(issued ? { issued } : {}), token, session, status: response.status });
    return response;
  },
};
