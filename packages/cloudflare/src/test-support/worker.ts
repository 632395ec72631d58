// The Worker the tests run in: the session store object, an agent object that holds its client,
// and a handler that makes one call per request through `connect`, as an application would
// (a new engine every request), or hands the request to the agent.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, McpSessionStore, type ResilienceEvent } from '../index.ts';
import type { McpAgent } from './agent.ts';

export { McpSessionStore };
export { McpAgent } from './agent.ts';

/** The store on a Durable Object class declared without SQLite (`new_classes`): it must say what to fix. */
export class KeyValueSessionStore extends McpSessionStore {}

interface Env {
  readonly MCP_SESSIONS: DurableObjectNamespace<McpSessionStore>;
  readonly MCP_AGENT: DurableObjectNamespace<McpAgent>;
}

async function call(params: URLSearchParams, env: Env, ctx: ExecutionContext): Promise<Response> {
  const events: ResilienceEvent[] = [];
  let backgroundTasks = 0;
  const client = await connect(params.get('url')!, {
    sessions: env.MCP_SESSIONS, sessionName: params.get('name') ?? 'default', onEvent: (e) => events.push(e),
    ctx: { waitUntil: (task) => (backgroundTasks++, ctx.waitUntil(task)) },
  });
  try {
    const result = await client.callTool({ name: 'echo', arguments: { text: params.get('text') ?? '' } }) as { content: { text: string }[] };
    return Response.json({ text: result.content[0]?.text, events, capabilities: client.getServerCapabilities() ?? null, backgroundTasks });
  } finally {
    ctx.waitUntil(client.close());
  }
}

/** What the tests must not do, to show why: a client kept in a global, for every request of this isolate. */
let globalClient: Promise<Client> | undefined;

async function callOnGlobal(params: URLSearchParams): Promise<Response> {
  try {
    const client = await (globalClient ??= connect(params.get('url')!));
    const result = await client.callTool({ name: 'echo', arguments: { text: params.get('text') ?? '' } }) as { content: { text: string }[] };
    return Response.json({ text: result.content[0]?.text });
  } catch (error) {
    return Response.json({ error: String(error) });
  }
}

/**
 * `GET /call?url=…&text=…&name=…`: one `echo` call through `connect`; answers its text, the events, what the client knew.
 * `GET /agent?url=…&text=…&name=…`: the same call by the agent object `name`, on the client it holds.
 * `GET /global?url=…&text=…`: the same call on a client kept in a module global (refused by workerd from the second request on).
 */
export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const { pathname, searchParams: params } = new URL(request.url);
    if (pathname === '/agent') {
      const agent = env.MCP_AGENT.get(env.MCP_AGENT.idFromName(params.get('name') ?? 'agent'));
      return Response.json(await agent.echo(params.get('url')!, params.get('text') ?? ''));
    }
    if (pathname === '/global') return callOnGlobal(params);
    return call(params, env, ctx);
  },
} satisfies ExportedHandler<Env>;
