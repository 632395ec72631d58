import { chaosPool, type CpuClock, type ScenarioHost } from '@mcp-resilience/scenarios';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callLongTool, createResilientFetch } from './engine.ts';

/**
 * What Node gives the shared runner: `@mcp-resilience/node`'s fetch and `callLongTool`, the official SDK 1.x
 * classes, and the chaos pool of an `mcp-chaos` process at `control`. Node's timers need no
 * port of their own: the runner's default (`setTimeout`) is Node's.
 *
 * @example
 * const report = await runCorpus(sources, nodeHost(chaos.control));
 */
export function nodeHost(control: string): ScenarioHost {
  return {
    runtime: 'node', createFetch: createResilientFetch, callLongTool, sdk: { Client, StreamableHTTPClientTransport }, chaos: chaosPool(control),
  };
}

/**
 * Node's CPU clock for the overhead measurement: user + system time of this process, in µs.
 *
 * @example
 * await measureRuntimeOverhead(nodeHost(control), RUNTIME_OVERHEAD_SIZES.quick, { cpu: NODE_CPU, version: process.version });
 */
export const NODE_CPU = {
  source: 'process.cpuUsage() of the Node process',
  readMicros: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
} satisfies CpuClock;
