// The page: the scenario corpus through @mcp-resilience/browser with the shared runner, against
// the chaos pool at `control` (another origin). `runCorpusInPage` resolves to the canonical report.
import { callLongTool, createResilientFetch } from '@mcp-resilience/browser';
import { chaosPool, renderReport, runCorpus, type ScenarioHost, type ScenarioSource } from '@mcp-resilience/scenarios';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** What a browser gives the runner: the adapter's fetch (no store: each scenario is a fresh page's engine), the SDK, the pool over CORS. */
export function browserHost(control: string): ScenarioHost {
  return {
    runtime: 'browser', createFetch: (options) => createResilientFetch({ ...options, persist: false }), callLongTool,
    sdk: { Client, StreamableHTTPClientTransport }, chaos: chaosPool(control),
  };
}

async function runCorpusInPage(sources: ScenarioSource[], control: string): Promise<string> {
  const report = renderReport(await runCorpus(sources, browserHost(control)));
  document.body.textContent = report;
  return report;
}

Object.assign(globalThis, { runCorpusInPage });
