// A churn-check client with no SDK and no recovery, over plain fetch: node raw-client.mjs URL.
// It keeps its session id whatever happens (as the plain SDKs do), so the session checks fail.
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
  if (notification) return undefined;
  const messages = text.split('\n').filter((l) => l.startsWith('data:') && l.slice(5).trim()).map((l) => JSON.parse(l.slice(5)));
  const answer = (messages.length ? messages : [JSON.parse(text)]).find((m) => m.id === id);
  if (!answer || answer.error) throw new Error(answer ? answer.error.message : 'no answer');
  return answer.result;
}

await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
await rpc('notifications/initialized', undefined, true);
await rpc('tools/list', {});
for (const step of context.steps) {
  await new Promise((resolve) => setTimeout(resolve, step.pauseMs ?? 0));
  await Promise.all(step.calls.map(({ id, tool, arguments: args }) => rpc('tools/call', { name: tool, arguments: args }).then(
    (result) => console.log(JSON.stringify({ id, ok: !result.isError, text: result.content[0].text })),
    (error) => console.log(JSON.stringify({ id, ok: false, error: error.message })),
  )));
}
