import { callLongTool, CfWorkerJsonSchemaValidator, createResilientFetch, type WaitUntilContext } from '@mcp-resilience/cloudflare';
import { chaosPool, type ScenarioHost } from '@mcp-resilience/scenarios';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * What workerd gives the shared runner, for one request: `@mcp-resilience/cloudflare`'s fetch
 * (background work on this request's `ctx.waitUntil`) and `callLongTool`, the official SDK 1.x classes with the
 * Workers-safe validator, and the chaos pool of an `mcp-chaos` process at `control`.
 *
 * @example
 * const report = await runScenario(scenario, workerdHost(control, ctx));
 */
export function workerdHost(control: string, ctx: WaitUntilContext): ScenarioHost {
  return {
    runtime: 'workerd',
    createFetch: (options) => createResilientFetch({ ...options, ctx }),
    callLongTool,
    sdk: { Client, StreamableHTTPClientTransport, clientOptions: { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() } },
    chaos: chaosPool(control),
  };
}
