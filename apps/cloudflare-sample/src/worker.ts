// The Cloudflare sample Worker. One scenario of the corpus per request, through the shared
// runner and @mcp-resilience/cloudflare, against the mcp-chaos pool whose control API the
// request names; and an echo call on a session kept in the Durable Object across requests.
//   POST /scenario?chaos=CONTROL_URL   body: a scenario file's text → its report (JSON)
//   GET  /call?url=MCP_URL&text=…[&user=…] one echo call on the stored session of `user` (default 'shared') → { text, events }
//   POST /overhead?chaos=CONTROL_URL&size=quick|full&version=…   what the engine costs in workerd → RuntimeOverhead (JSON)
import { connect, McpSessionStore, type ResilienceEvent, type SessionStoreNamespace } from '@mcp-resilience/cloudflare';
import {
  measureRuntimeOverhead, parseScenarioFile, runScenario, RUNTIME_OVERHEAD_SIZES, scenarioReport, type CpuClock,
} from '@mcp-resilience/scenarios';
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

/** A Worker reads no CPU time: there is no such clock in workerd (Cloudflare reports CPU time per request, outside the isolate). */
const NO_CPU_CLOCK: CpuClock = { unavailable: 'workerd has no CPU clock for the isolate to read' };

/** workerd's clock stands still while the isolate runs, and moves on I/O only, in whole milliseconds. */
const WORKERD_CLOCK = 'performance.now(): whole milliseconds, advancing on I/O only';

/**
 * The shared overhead measurement, in this one request: both clients live and die within it,
 * as a Worker's I/O must. workerd's clock advances only on I/O, so each latency is the time
 * between the I/O that came before the call and the I/O that ended it.
 */
async function overhead(params: URLSearchParams, ctx: ExecutionContext): Promise<Response> {
  const control = params.get('chaos');
  const size = params.get('size');
  if (!control || (size !== 'quick' && size !== 'full')) return Response.json({ error: 'POST /overhead?chaos=CONTROL_URL&size=quick|full[&version=…]' }, { status: 400 });
  // The isolate cannot tell which workerd runs it: whoever runs the Worker says (run.mjs: Miniflare's version).
  const version = params.get('version') ?? 'workerd';
  try {
    return Response.json(await measureRuntimeOverhead(workerdHost(control, ctx), RUNTIME_OVERHEAD_SIZES[size], { cpu: NO_CPU_CLOCK, version, clock: WORKERD_CLOCK }));
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 500 });
  }
}

async function call(params: URLSearchParams, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = params.get('url');
  if (!url) return Response.json({ error: 'GET /call?url=MCP_URL&text=…' }, { status: 400 });
  const events: ResilienceEvent[] = [];
  // Whose session: a real Worker names the signed-in user; this sample's callers share one, and say so.
  const client = await connect(url, { sessions: env.MCP_SESSIONS, sessionName: params.get('user') ?? 'shared', ctx, onEvent: (e) => events.push(e) });
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
    if (request.method === 'POST' && pathname === '/overhead') return overhead(searchParams, ctx);
    return Response.json({ error: 'POST /scenario?chaos=…&file=…, GET /call?url=… or POST /overhead?chaos=…&size=…' }, { status: 404 });
  },
} satisfies ExportedHandler<Env>;
