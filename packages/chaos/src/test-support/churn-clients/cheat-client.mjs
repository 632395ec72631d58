// A churn-check client over plain HTTP that recovers from a session loss (re-initialize once,
// shared, and send the failed call again once) unless told to cheat or slip:
// node cheat-client.mjs MODE URL, MODE one of
//   correct           does it right
//   nothing           sends nothing and prints success for every call of the context
//   ping-dead-id      on a loss, pings on the dead id before re-initializing
//   twice-on-dead-id  on a loss, sends the failed call once more on the dead id before re-initializing
//   delete-old        does it right, and DELETEs the old session after re-initializing
//   buffered          does it right, but its output is held until it exits (block-buffered stdout), after a lingering close
//   alternate=FILE    a race of its own: correct on its 1st, 3rd, … run (counted in FILE), ping-dead-id on the others
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resultIn } from './raw-rpc.mjs';

const mode = (() => {
  const [name, file] = process.argv[2].split('=');
  if (name !== 'alternate') return name;
  const runs = existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
  writeFileSync(file, String(runs + 1));
  return runs % 2 === 0 ? 'correct' : 'ping-dead-id';
})();
const context = JSON.parse(process.env.MCP_CHURN_CONTEXT);
const url = process.argv.at(-1);
const held = [];
const print = (line) => (mode === 'buffered' ? held.push(line) : console.log(JSON.stringify(line)));

if (mode === 'nothing') {
  for (const step of context.steps) for (const { id, arguments: args } of step.calls) print({ id, ok: true, text: args.text });
  process.exit(0);
}

// One keep-alive connection, as a client with a single connection, or a pool that hands out the
// connection an answer just freed, sends: so each request follows the answer before it on the wire.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function send(target, { method, headers, body, signal }) {
  return new Promise((resolve, reject) => {
    const sent = request(target, { method, headers, agent, signal }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve(new Response([204, 205, 304].includes(res.statusCode) ? null : Buffer.concat(chunks),
        { status: res.statusCode, headers: Object.entries(res.headers).flatMap(([name, value]) => [value].flat().map((v) => [name, v])) })));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

let session;
let nextId = 1;
let reinit;

async function post(method, params, id, sessionId) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  if (sessionId) headers['mcp-session-id'] = sessionId;
  const response = await send(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method, params, id }), signal: AbortSignal.timeout(context.callTimeoutMs) });
  return { response, text: await response.text() };
}

async function open() {
  const old = session;
  const { response, text } = await post('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cheat', version: '1' } }, nextId++);
  if (!response.ok) throw new Error(`initialize: HTTP ${response.status}: ${text.slice(0, 80)}`);
  session = response.headers.get('mcp-session-id');
  await post('notifications/initialized', undefined, undefined, session);
  if (mode === 'delete-old' && old) await send(url, { method: 'DELETE', headers: { 'mcp-session-id': old, 'mcp-protocol-version': '2025-11-25' } });
}

/** A session loss is read once: every call that met it waits for the one re-initialization. */
function recover(dead) {
  if (session !== dead) return reinit;
  reinit ??= (async () => {
    if (mode === 'ping-dead-id') await post('ping', {}, nextId++, dead);
    await open();
  })().finally(() => (reinit = undefined));
  return reinit;
}

async function call(method, params, replayed = false) {
  const sent = session;
  const id = nextId++;
  const { response, text } = await post(method, params, id, sent);
  if ((response.status === 404 || response.status === 400) && sent && !replayed) {
    if (mode === 'twice-on-dead-id') await post(method, params, nextId++, sent);
    await recover(sent);
    return call(method, params, true);
  }
  if ((response.status === 429 || response.status === 503) && !replayed) {
    const seconds = Number(response.headers.get('retry-after'));
    const date = Date.parse(response.headers.get('retry-after') ?? '');
    const waitMs = Number.isFinite(seconds) ? seconds * 1000 : Number.isNaN(date) ? 1000 : date - Date.now();
    if (waitMs > 10_000) throw new Error(`HTTP ${response.status}: Retry-After too long`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs) + 20));
    return call(method, params, true);
  }
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 80)}`);
  return resultIn(text, id);
}

await open();
await call('tools/list', {});
for (const step of context.steps) {
  await new Promise((resolve) => setTimeout(resolve, step.pauseMs ?? 0));
  await Promise.all(step.calls.map(({ id, tool, arguments: args }) => call('tools/call', { name: tool, arguments: args }).then(
    (result) => print({ id, ok: !result.isError, text: result.content[0].text }),
    (error) => print({ id, ok: false, error: String(error.message) }),
  )));
}
if (mode === 'buffered') {
  await new Promise((resolve) => setTimeout(resolve, context.callTimeoutMs)); // a close that lingers: the held lines come out only after it
  process.stdout.write(held.map((line) => `${JSON.stringify(line)}\n`).join(''));
}
process.exit(0);
