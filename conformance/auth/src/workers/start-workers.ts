// Node side: the two Workers bundled as wrangler bundles them (esbuild, the workerd conditions, the
// README's Ajv alias) and run by one Miniflare in workerd: the OAuth-protected MCP server (KV
// binding OAUTH_KV) and the client Worker (its Durable Object `McpUser`, the server as a service binding).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeOutput, readyWithin } from '@mcp-resilience/chaos/process';
import { build } from 'esbuild';
import type { CallOutcome, ClientState } from './mcp-client-worker.ts';
import type { ServerState } from './oauth-mcp-server.ts';

/** What the test uses of Miniflare; imported by a name TypeScript does not follow (its declarations are most of the type-check's time). */
interface Workerd {
  readonly ready: Promise<URL>;
  dispatchFetch(url: string, init?: { method?: string; signal?: AbortSignal }): Promise<Response>;
  getWorker(name: string): Promise<{ fetch(url: string, init?: { method?: string; signal?: AbortSignal }): Promise<Response> }>;
  dispose(): Promise<void>;
}
const MINIFLARE: string = 'miniflare';
const HERE = fileURLToPath(new URL('.', import.meta.url));
const NO_AJV = '@mcp-resilience/cloudflare/no-ajv';
/** The longest any one request to the Workers may take: a hang fails the test with this, well before its timeout. */
const REQUEST_CAP_MS = 20_000;

async function bundle(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [join(HERE, entry)], outfile, bundle: true, format: 'esm', platform: 'neutral', target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'], external: ['cloudflare:*', 'node:*'],
    alias: { ajv: NO_AJV, 'ajv-formats': NO_AJV }, logLevel: 'error',
  });
}

/** The two Workers running in workerd, and how to drive and stop them. */
export interface OAuthWorkers {
  /** Signs `user` in (registration, authorization, code → tokens) and opens its MCP session; answers its OAuth client id. */
  signIn(user: string): Promise<string>;
  /** `n` concurrent tool calls of `user`'s one client. */
  call(user: string, n?: number): Promise<CallOutcome[]>;
  /** `user`'s client refreshes its token now. */
  refresh(user: string): Promise<void>;
  /** `user`'s client-side counts. */
  clientState(user: string): Promise<ClientState>;
  /** A test-only route of the server: drop-sessions, expire-tokens (of `client`), revoke (the grant of `client`). */
  admin(route: 'drop-sessions' | 'expire-tokens' | 'revoke', client?: string): Promise<Record<string, number>>;
  /** The server's counters and wire so far. */
  serverState(): Promise<ServerState>;
  /** Stops workerd (Miniflare's child process) and removes the bundles. */
  dispose(): Promise<void>;
}

async function answer<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/**
 * Bundles the server Worker (`@cloudflare/workers-oauth-provider` in front of an SDK MCP server) and
 * the client Worker (`durableClient` with the SDK's OAuth) and runs both in one Miniflare, once
 * workerd says it is ready (a minute at most, `readyWithin`; then it fails with what workerd printed).
 *
 * @example
 * const workers = await startOAuthWorkers();
 * const clientId = await workers.signIn('alice');
 * await workers.admin('expire-tokens', clientId);
 * expect(await workers.call('alice')).toEqual([{ ok: true, text: 'call-0' }]);
 * await workers.dispose();
 */
export async function startOAuthWorkers(): Promise<OAuthWorkers> {
  const out = mkdtempSync(join(tmpdir(), 'auth-workers-'));
  const printed = { stdout: '', stderr: '' };
  let mf: Workerd | undefined;
  try {
    await Promise.all([bundle('oauth-mcp-server.ts', join(out, 'server.js')), bundle('mcp-client-worker.ts', join(out, 'client.js'))]);
    const { Miniflare } = (await import(MINIFLARE)) as { Miniflare: new (options: object) => Workerd };
    const common = { modules: true, modulesRoot: out, compatibilityDate: '2026-04-20', compatibilityFlags: ['nodejs_compat'] };
    mf = new Miniflare({
      host: '127.0.0.1', cf: false,
      handleRuntimeStdio(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) {
        for (const [name, stream] of [['stdout', stdout], ['stderr', stderr]] as const) {
          stream.setEncoding('utf8');
          stream.on('data', (text: string) => (printed[name] = (printed[name] + text).slice(-8_000)));
        }
      },
      workers: [
        { ...common, name: 'client', scriptPath: join(out, 'client.js'), serviceBindings: { SERVER: 'server' },
          durableObjects: { USERS: { className: 'McpUser', useSQLite: true } } },
        { ...common, name: 'server', scriptPath: join(out, 'server.js'), kvNamespaces: ['OAUTH_KV'] },
      ],
    });
    await readyWithin(mf.ready);
  } catch (error) {
    await mf?.dispose().catch(() => undefined);
    rmSync(out, { recursive: true, force: true });
    throw new Error(`workerd (Miniflare) did not start: ${(error as Error).message}\n${describeOutput(printed)}`, { cause: error });
  }
  const worker = mf;
  const server = await worker.getWorker('server');
  const op = (user: string, name: string, query = '') => worker.dispatchFetch(`http://127.0.0.1/${user}/${name}${query}`, { method: 'POST', signal: AbortSignal.timeout(REQUEST_CAP_MS) });
  const withOutput = async <T>(p: Promise<T>): Promise<T> => {
    try { return await p; } catch (error) { throw new Error(`${(error as Error).message}\n${describeOutput(printed)}`, { cause: error }); }
  };
  return {
    signIn: async (user) => (await withOutput(answer<{ clientId: string }>(await op(user, 'sign-in'), 'sign-in'))).clientId,
    call: async (user, n = 1) => answer<CallOutcome[]>(await op(user, 'call', `?n=${n}`), 'call'),
    refresh: async (user) => void (await answer(await op(user, 'refresh'), 'refresh')),
    clientState: async (user) => answer<ClientState>(await op(user, 'state'), 'state'),
    admin: async (route, client = '') => answer(await server.fetch(`http://127.0.0.1/admin/${route}?client=${encodeURIComponent(client)}`, { method: 'POST', signal: AbortSignal.timeout(REQUEST_CAP_MS) }), route),
    serverState: async () => answer<ServerState>(await server.fetch('http://127.0.0.1/admin/state', { signal: AbortSignal.timeout(REQUEST_CAP_MS) }), 'state'),
    async dispose() {
      await worker.dispose();
      rmSync(out, { recursive: true, force: true });
    },
  };
}
