// `pnpm bench:profile`: what one healthy call costs the engine, in CPU, on one Node line and one
// answer format: the plain SDK client and the same client with createResilientFetch() make the
// same echo calls on one healthy chaos server, in alternating blocks, and the CPU time of this
// process per call is printed for each and their difference. With --cpu-prof, each client's calls
// run alone in a process of their own under Node's profiler (the .cpuprofile files land in
// --out), so the two profiles can be compared function by function. With --fake, no network and
// no SDK: the engine's own work, over a fetch that answers at once from memory, against that fetch alone.
// With --floor, the same comparison is made twice more: with a fetch that only reads each JSON
// answer whole and hands on a new response of it (the value already parsed), what seeing the
// answer costs at least, for the engine's figure to be read against; and with a fetch that only
// passes each request on, what costs nothing, for the measurement's own noise.
// Usage: pnpm bench:profile [--node 26] [--format sse|json] [--calls 3000] [--cpu-prof [--out DIR]] [--fake] [--floor]
// (profiles: bench/results/local/profiles, which git ignores)
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { nodeBinary, NODE_LINES, type NodeLine } from '@mcp-resilience/node-lines';
import { createResilientFetch } from '@mcp-resilience/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { measureOverhead } from '@mcp-resilience/scenarios';
import { NODE_CPU, nodeHost } from 'node-sample/dist/node-host.js';
import { startChaosProcess } from './chaos-process.ts';

const { values } = parseArgs({
  options: {
    node: { type: 'string' }, format: { type: 'string', default: 'sse' }, calls: { type: 'string', default: '3000' },
    'cpu-prof': { type: 'boolean', default: false }, out: { type: 'string' },
    only: { type: 'string' }, chaos: { type: 'string' }, fake: { type: 'boolean', default: false }, floor: { type: 'boolean', default: false },
  },
  strict: true,
});
const format = values.format === 'json' ? 'json' : 'sse';
const calls = Number(values.calls);
const BLOCK = 250;
const CAP_MS = 600_000;

/** The plain client or the resilient one, connected to `url`. */
async function connect(url: string, resilient: boolean): Promise<Client> {
  const client = new Client({ name: 'bench-profile', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), resilient ? { fetch: createResilientFetch() } : {}));
  return client;
}

async function echoes(client: Client, n: number): Promise<number> {
  const before = NODE_CPU.readMicros();
  for (let i = 0; i < n; i++) await client.callTool({ name: 'echo', arguments: { text: `c${i}` } });
  return NODE_CPU.readMicros() - before;
}

/**
 * In this process: the shared overhead measurement of `@mcp-resilience/scenarios` (both clients,
 * alternating blocks, one call at a time), or with `--only`, one client alone (for a profile of it);
 * prints CPU µs per call.
 */
async function measureHere(control: string): Promise<void> {
  const host = nodeHost(control);
  if (!values.only) {
    const size = { warmupCalls: 300, rounds: Math.ceil(calls / BLOCK), sequentialCalls: BLOCK, concurrentCallsPerWorker: 0 };
    const against = async (through: string, measured: typeof host) => {
      const { plain, resilient, medianRatio } = (await measureOverhead(measured, size, { format, readCpuMicros: NODE_CPU.readMicros })).sequential;
      const perCall = { plain: plain.cpuMicrosPerCall!, [through]: resilient.cpuMicrosPerCall! };
      return { through, medianRatio, cpuMicrosPerCall: perCall, addedMicrosPerCall: resilient.cpuMicrosPerCall! - plain.cpuMicrosPerCall! };
    };
    const floors = values.floor ? { reader: readerFetch, pass: passFetch } : {};
    const sides = [await against('resilient', host)];
    for (const [through, floor] of Object.entries(floors)) sides.push(await against(through, { ...host, createFetch: () => floor }));
    for (const side of sides) process.stdout.write(`${JSON.stringify({ node: process.version, format, calls, ...side })}\n`);
    return;
  }
  const server = await host.chaos.start(format === 'json' ? { jsonResponses: true } : {});
  const client = new Client({ name: 'bench-profile', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), values.only === 'resilient' ? { fetch: createResilientFetch() } : {}));
    const echoes = async (n: number) => {
      const before = NODE_CPU.readMicros();
      for (let i = 0; i < n; i++) await client.callTool({ name: 'echo', arguments: { text: `c${i}` } });
      return NODE_CPU.readMicros() - before;
    };
    await echoes(Math.min(300, calls));
    process.stdout.write(`${JSON.stringify({ node: process.version, format, calls, cpuMicrosPerCall: { [values.only]: Math.round((await echoes(calls)) / calls) } })}\n`);
  } finally {
    await client.close().catch(() => {});
    await server.stop();
  }
}

/** A JSON answer read whole, handed on with its value already parsed (`json()` gives it without reading again). */
class ReadAnswer extends Response {
  readonly #value: unknown;
  readonly #headers: Headers;

  constructor(text: string, from: Response) {
    super(text, { status: from.status, statusText: from.statusText });
    this.#value = JSON.parse(text);
    this.#headers = from.headers;
  }

  override get headers(): Headers {
    return this.#headers;
  }

  override json(): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- as Response declares it
    void this.body?.cancel();
    return Promise.resolve(this.#value);
  }
}

/**
 * The floor (`--floor`): what a fetch that sees every JSON answer does at least, and nothing more:
 * it reads the answer whole and hands on a new response of it. Anything else goes as it came.
 */
const readerFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!response.headers.get('content-type')?.startsWith('application/json')) return response;
  return new ReadAnswer(await response.text(), response);
};

/** The zero line (`--floor`): a fetch that passes each request on and hands back what came, as a wrapper that does nothing does. */
const passFetch: typeof fetch = async (input, init) => await fetch(input, init);

/** A fetch that answers an MCP endpoint at once from memory: `initialize` with a session, a request with its answer in `format`. */
const fromMemory: typeof fetch = async (_input, init) => {
  const message = JSON.parse(String(init?.body)) as { id?: number; method?: string };
  const headers = { 'mcp-session-id': 'S1', date: new Date().toUTCString(), 'keep-alive': 'timeout=65' };
  if (message.method === 'initialize') {
    const result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'memory', version: '0' } };
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }), { headers: { ...headers, 'content-type': 'application/json' } });
  }
  if (message.id === undefined) return new Response(null, { status: 202 });
  const answer = JSON.stringify({ result: { content: [{ type: 'text', text: 'c' }] }, jsonrpc: '2.0', id: message.id });
  return format === 'json'
    ? new Response(answer, { headers: { ...headers, 'content-type': 'application/json' } })
    : new Response(`id: p\ndata: \n\nevent: message\nid: e\ndata: ${answer}\n\n`, { headers: { ...headers, 'content-type': 'text/event-stream' } });
};

/** The engine over {@link fromMemory} against it alone: requests as the SDK sends them, answers read as it reads them; µs per call. */
async function measureWithoutNetwork(): Promise<void> {
  const url = new URL('http://127.0.0.1:9/mcp');
  const engine = createResilientFetch({ fetch: fromMemory });
  const headers = (session?: string) => new Headers({
    'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
  });
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'p', version: '0' } } };
  await (await engine(url, { method: 'POST', headers: headers(), body: JSON.stringify(initialize) })).json();
  const loop = async (through: typeof fetch, n: number) => {
    const before = NODE_CPU.readMicros();
    for (let id = 1; id <= n; id++) {
      const body = JSON.stringify({ method: 'tools/call', params: { name: 'echo', arguments: { text: `c${id}` } }, jsonrpc: '2.0', id });
      const response = await through(url, { method: 'POST', headers: headers('S1'), body });
      await (response.headers.get('content-type')?.includes('json') ? response.json() : response.text());
    }
    return NODE_CPU.readMicros() - before;
  };
  const sides = [['plain', fromMemory], ['resilient', engine]] as const;
  for (const [, through] of sides) await loop(through, 5_000);
  const cpu = [0, 0];
  for (let done = 0, round = 0; done < calls; done += BLOCK * 4, round++) {
    for (const i of round % 2 ? [1, 0] : [0, 1]) cpu[i]! += await loop(sides[i]![1], BLOCK * 4);
  }
  const perCall = cpu.map((c) => Math.round((10 * c) / (Math.ceil(calls / (BLOCK * 4)) * BLOCK * 4)) / 10);
  process.stdout.write(`${JSON.stringify({
    node: process.version, format, calls, wire: 'none: a fetch answering from memory', cpuMicrosPerCall: { plain: perCall[0], resilient: perCall[1] },
    addedMicrosPerCall: Math.round(10 * (perCall[1]! - perCall[0]!)) / 10,
  })}\n`);
}

if (values.chaos) {
  await (values.fake ? measureWithoutNetwork() : measureHere(values.chaos));
} else {
  const line = values.node ? Number(values.node) as NodeLine : undefined;
  if (line !== undefined && !(line in NODE_LINES)) throw new Error(`--node: one of ${Object.keys(NODE_LINES).join(', ')}`);
  const executable = line === undefined ? process.execPath : await nodeBinary(line);
  const chaos = await startChaosProcess();
  try {
    const script = fileURLToPath(import.meta.url);
    const args = ['--chaos', chaos.control, '--format', format, '--calls', String(calls), ...(values.fake ? ['--fake'] : []), ...(values.floor ? ['--floor'] : [])];
    const runs = values['cpu-prof'] && !values.fake ? ['plain', 'resilient'] : [undefined];
    const out = values.out ? resolve(values.out) : fileURLToPath(new URL('../results/local/profiles/', import.meta.url));
    if (values['cpu-prof']) mkdirSync(out, { recursive: true });
    for (const only of runs) {
      const flags = only ? ['--cpu-prof', '--cpu-prof-dir', out, '--cpu-prof-name', `${only}-${format}-node${line ?? process.versions.node.split('.')[0]}.cpuprofile`] : [];
      const { stdout } = await promisify(execFile)(executable, [...flags, script, ...args, ...(only ? ['--only', only] : [])], { timeout: CAP_MS });
      process.stdout.write(stdout);
    }
    if (values['cpu-prof']) process.stdout.write(`profiles in ${out}\n`);
  } finally {
    await chaos.stop();
  }
}
