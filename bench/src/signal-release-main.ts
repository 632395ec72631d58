// Which signal a call's requests go out on, on the Node that runs this script: an SDK client
// through createResilientFetch() makes 20 echo calls at the chaos server whose URL is the first
// argument, then one slow call its caller aborts. Prints one JSON line: for each call, whether
// it carried the SDK's own signal, and how the aborted call ended. Run by signal-release.test.ts
// on this process's Node and on Node 26, whose fetch drops what it adds to a request's signal.
import { createResilientFetch } from '@mcp-resilience/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = new URL(process.argv[2]!);
const signals: (AbortSignal | null | undefined)[] = [];
const isCall = (init?: RequestInit) => typeof init?.body === 'string' && init.body.includes('"tools/call"');
const fetch = createResilientFetch({ fetch: (input, init) => (isCall(init) && signals.push(init?.signal), globalThis.fetch(input, init)) });
const transport = new StreamableHTTPClientTransport(url, { fetch });
const client = new Client({ name: 'signal-release', version: '1.0.0' });
await client.connect(transport);
const sdkSignal = (transport as unknown as { _abortController?: AbortController })._abortController?.signal;
for (let i = 0; i < 20; i++) await client.callTool({ name: 'echo', arguments: { text: `c${i}` } });
const calls = signals.map((signal) => signal === sdkSignal);
const controller = new AbortController();
setTimeout(() => controller.abort(new Error('the caller gave up')), 200);
const aborted = await client.callTool({ name: 'slow', arguments: { ms: 10_000 } }, undefined, { signal: controller.signal }).then(
  () => 'answered', (error: Error) => error.message);
await client.close();
await fetch.close();
process.stdout.write(`${JSON.stringify({ node: process.version, calls, aborted })}\n`);
