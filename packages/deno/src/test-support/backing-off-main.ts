// A Deno program whose one request is backing off when main returns: it prints every event,
// and returns as soon as the engine has decided to wait out the server's Retry-After.
// Usage: deno run --allow-net=127.0.0.1 backing-off-main.ts MCP_URL unrefd|refd
//   refd: the client's default sleep (a plain, ref'd setTimeout) instead of Deno's unref'd one
import { defaultSleep } from '@mcp-resilience/client/adapter';
import { createResilientFetch } from '../index.ts';

const [url, sleep] = Deno.args;
const { promise: backedOff, resolve } = Promise.withResolvers<void>();
const resilientFetch = createResilientFetch({
  ...(sleep === 'refd' ? { sleep: defaultSleep } : {}),
  onEvent: (event) => {
    console.log(event.type);
    if (event.type === 'backed-off') resolve();
  },
});
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'backing-off', version: '1.0.0' } } };
void resilientFetch(url!, {
  method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(initialize),
}).then(async (response) => {
  await response.body?.cancel();
  console.log(`answered ${response.status}`);
});
await backedOff;
console.log('main returns');
