// A churn-check client over plain fetch for the protected scenarios: node auth-client.mjs MODE URL.
// `correct`: a 401 refreshes the token at the context's token endpoint and sends the request again;
// a 404 on its session drops the id, initializes once (shared) and sends the call again.
// `no-refresh`: never refreshes (a 401 fails the call). `keep-dead-id`: refreshes, but keeps the
// dead session id as the plain SDKs do (a 404 fails the call, and the next call carries the id).
// `no-auth`: a client that cannot authenticate, and says so.
import { resultIn, runSteps } from './raw-rpc.mjs';

const context = JSON.parse(process.env.MCP_CHURN_CONTEXT);
const [mode, url] = process.argv.slice(-2);
if (mode === 'no-auth' || !context.auth) {
  console.log(JSON.stringify({ skip: 'this client cannot authenticate' }));
  process.exit(0);
}
const { auth } = context;
let token = auth.accessToken;
let session;
let nextId = 1;
let reinitializing;

async function refresh() {
  const response = await fetch(auth.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa(`${auth.clientId}:${auth.clientSecret}`)}` },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: auth.refreshToken }),
    signal: AbortSignal.timeout(context.callTimeoutMs),
  });
  if (!response.ok) throw new Error(`token endpoint: HTTP ${response.status}`);
  token = (await response.json()).access_token;
}

/** One new session for every call that met the dead one. */
function reinitialize(dead) {
  if (session !== dead) return reinitializing ?? Promise.resolve();
  session = undefined;
  reinitializing ??= (async () => {
    await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'auth-client', version: '1' } });
    await rpc('notifications/initialized', undefined, true);
  })().finally(() => (reinitializing = undefined));
  return reinitializing;
}

async function rpc(method, params, notification = false, tried = new Set()) {
  const headers = {
    'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${token}`,
  };
  const sent = session;
  if (sent) headers['mcp-session-id'] = sent;
  const id = notification ? undefined : nextId++;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method, params, id }), signal: AbortSignal.timeout(context.callTimeoutMs) });
  session = response.headers.get('mcp-session-id') ?? session;
  const text = await response.text();
  const again = (why) => !tried.has(why) && tried.add(why);
  if (response.status === 401 && mode !== 'no-refresh' && again(401)) return refresh().then(() => rpc(method, params, notification, tried));
  if (response.status === 404 && sent && mode !== 'keep-dead-id' && again(404)) return reinitialize(sent).then(() => rpc(method, params, notification, tried));
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 80)}`);
  return notification ? undefined : resultIn(text, id);
}

await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'auth-client', version: '1' } });
await rpc('notifications/initialized', undefined, true);
await runSteps(context, rpc);
