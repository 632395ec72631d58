// The Worker the tests run in: the session store object, and a handler that makes one call
// per request through `connect`, as an application would (a new engine every request).
import { connect, type ResilienceEvent } from '../index.ts';

export { McpSessionStore } from '../index.ts';

interface Env {
  readonly MCP_SESSIONS: DurableObjectNamespace<import('../index.ts').McpSessionStore>;
}

/** `GET /call?url=…&text=…&name=…`: one `echo` call; answers its text, the events, what the client knew. */
export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const params = new URL(request.url).searchParams;
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
  },
} satisfies ExportedHandler<Env>;
