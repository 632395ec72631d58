import { callLongTool, createResilientFetch } from '@mcp-resilience/deno';
import { chaosPool, type ScenarioHost } from '@mcp-resilience/scenarios';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * What Deno gives the shared runner: `@mcp-resilience/deno`'s fetch (its unref'd timers, Deno's
 * refused and blocked sends) and `callLongTool`, the official SDK 1.x classes, and the chaos pool
 * of the `mcp-chaos` process at `control`. The runner's own waits keep the default `setTimeout`: they are ref'd, as
 * a program's waits should be; only the engine's must not hold the process.
 *
 * @example
 * const report = await runCorpus(sources, denoHost('http://127.0.0.1:4100/_chaos'));
 */
export function denoHost(control: string): ScenarioHost {
  return {
    runtime: 'deno', createFetch: createResilientFetch, callLongTool, sdk: { Client, StreamableHTTPClientTransport }, chaos: chaosPool(control),
  };
}
