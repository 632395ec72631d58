// The Cloudflare sample Worker. One scenario of the corpus per request, through the shared
// runner and @mcp-resilience/cloudflare, against the mcp-chaos pool whose control API the
// request names; and an echo call on a session kept in the Durable Object across requests.
//   POST /scenario?chaos=CONTROL_URL   body: a scenario file's text → its report (JSON)
//   GET  /call?url=MCP_URL&text=…       one echo call on the stored session → { text, events }
import { connect, McpSessionStore, type ResilienceEvent, type SessionStoreNamespace } from '@mcp-resilience/cloudflare';
import { parseScenarioFile, runScenario, scenarioReport } from '@mcp-resilience/scenarios';
import { workerdHost } from './workerd-host.ts';

export { McpSessionStore };

interface Env {
  readonly MCP_SESSIONS: SessionStoreNamespace;
}

async function scenario(request: Request, params: URLSearchParams, ctx: ExecutionContext): Promise<Response> {
  const control = params.get('chaos');
  const file = params.get('file');
  if (!control || !file) return Response.json({ error: 'POST /scenario?chaos=CONTROL_URL&file=NAME.json with the file as the body' }, { status: 400 });
  const source = { file, text: await request.text() };
  let parsed;
  try {
    parsed = parseScenarioFile(source);
  } catch (error) {
    return Response.json(scenarioReport({ name: file, trace: [], wire: {}, mismatches: [(error as Error).message] }));
  }
  return Response.json(await runScenario(parsed, workerdHost(control, ctx)));
}

async function call(params: URLSearchParams, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = params.get('url');
  if (!url) return Response.json({ error: 'GET /call?url=MCP_URL&text=…' }, { status: 400 });
  const events: ResilienceEvent[] = [];
  const client = await connect(url, { sessions: env.MCP_SESSIONS, ctx, onEvent: (e) => events.push(e) });
  try {
    const result = await client.callTool({ name: 'echo', arguments: { text: params.get('text') ?? '' } }) as { content: { text?: string }[] };
    return Response.json({ text: result.content[0]?.text, events });
  } finally {
    ctx.waitUntil(client.close());
  }
}

export default {
  async fetch(request, env, ctx) {
    const { pathname, searchParams } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/scenario') return scenario(request, searchParams, ctx);
    if (request.method === 'GET' && pathname === '/call') return call(searchParams, env, ctx);
    return Response.json({ error: 'POST /scenario?chaos=…&file=… or GET /call?url=…' }, { status: 404 });
  },
} satisfies ExportedHandler<Env>;
