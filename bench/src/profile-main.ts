// `pnpm bench:profile`: what one healthy call costs the engine, in CPU, on one Node line and one
// answer format: the plain SDK client and the same client with createResilientFetch() make the
// same echo calls on one healthy chaos server, in alternating blocks, and the CPU time of this
// process per call is printed for each and their difference. With --cpu-prof, each client's calls
// run alone in a process of their own under Node's profiler (the .cpuprofile files land in
// --out), so the two profiles can be compared function by function.
// Usage: pnpm bench:profile [--node 26] [--format sse|json] [--calls 3000] [--cpu-prof [--out DIR]] (profiles: bench/results/local/profiles, which git ignores)
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { nodeBinary, NODE_LINES, type NodeLine } from '@mcp-resilience/node-lines';
import { createResilientFetch } from '@mcp-resilience/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { NODE_CPU, nodeHost } from 'node-sample/dist/node-host.js';
import { startChaosProcess } from './chaos-process.ts';

const { values } = parseArgs({
  options: {
    node: { type: 'string' }, format: { type: 'string', default: 'sse' }, calls: { type: 'string', default: '3000' },
    'cpu-prof': { type: 'boolean', default: false }, out: { type: 'string', default: 'bench/results/local/profiles' },
    only: { type: 'string' }, chaos: { type: 'string' },
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

/** In this process: both clients, alternating blocks (or one, `--only`, for a profile); prints µs per call. */
async function measureHere(control: string): Promise<void> {
  const server = await nodeHost(control).chaos.start(format === 'json' ? { jsonResponses: true } : {});
  const sides = values.only ? [values.only] : ['plain', 'resilient'];
  const clients = await Promise.all(sides.map((side) => connect(server.url, side === 'resilient')));
  try {
    for (const client of clients) await echoes(client, Math.min(300, calls));
    const cpu = sides.map(() => 0);
    for (let done = 0; done < calls; done += BLOCK) {
      const order = (done / BLOCK) % 2 === 0 ? clients.map((_, i) => i) : clients.map((_, i) => clients.length - 1 - i);
      for (const i of order) cpu[i]! += await echoes(clients[i]!, BLOCK);
    }
    const perCall = Object.fromEntries(sides.map((side, i) => [side, Math.round(cpu[i]! / Math.ceil(calls / BLOCK) / BLOCK)]));
    const added = perCall.plain !== undefined && perCall.resilient !== undefined ? { addedMicrosPerCall: perCall.resilient - perCall.plain } : {};
    process.stdout.write(`${JSON.stringify({ node: process.version, format, calls, cpuMicrosPerCall: perCall, ...added })}\n`);
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await server.stop();
  }
}

if (values.chaos) {
  await measureHere(values.chaos);
} else {
  const line = values.node ? Number(values.node) as NodeLine : undefined;
  if (line !== undefined && !(line in NODE_LINES)) throw new Error(`--node: one of ${Object.keys(NODE_LINES).join(', ')}`);
  const executable = line === undefined ? process.execPath : await nodeBinary(line);
  const chaos = await startChaosProcess();
  try {
    const script = fileURLToPath(import.meta.url);
    const args = ['--chaos', chaos.control, '--format', format, '--calls', String(calls)];
    const runs = values['cpu-prof'] ? ['plain', 'resilient'] : [undefined];
    const out = resolve(values.out);
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
