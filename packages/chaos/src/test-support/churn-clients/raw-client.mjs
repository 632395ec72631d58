// A churn-check client with no SDK and no recovery, over plain fetch: node raw-client.mjs URL.
// It keeps its session id whatever happens (as the plain SDKs do), so the session checks fail.
import { resultIn, runSteps } from './raw-rpc.mjs';

const context = JSON.parse(process.env.MCP_CHURN_CONTEXT);
const url = process.argv.at(-1);
let session;
let nextId = 1;

async function rpc(method, params, notification = false) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  if (session) headers['mcp-session-id'] = session;
  const id = notification ? undefined : nextId++;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method, params, id }), signal: AbortSignal.timeout(context.callTimeoutMs) });
  session = response.headers.get('mcp-session-id') ?? session;
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 80)}`);
  return notification ? undefined : resultIn(text, id);
}

await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
await rpc('notifications/initialized', undefined, true);
await runSteps(context, rpc);
