// The page: the scenario corpus through @mcp-resilience/browser with the shared runner. The MCP
// servers of the chaos pool are on other origins than the page (cross-origin, as in production);
// the pool's control API is reached through the page's own server (`relayedFetch`), which asks it
// as a program does, so that mcp-chaos needs no `--control-origin` for this page whoever started it.
// It also measures what the engine costs in the page (`measureOverheadInPage`).
import { callLongTool, createResilientFetch } from '@mcp-resilience/browser';
import {
  chaosPool, measureRuntimeOverhead, renderReport, runCorpus, RUNTIME_OVERHEAD_SIZES, type RuntimeOverhead, type ScenarioHost, type ScenarioSource,
} from '@mcp-resilience/scenarios';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { relayedFetch } from './chaos-relay.ts';

/** What a browser gives the runner: the adapter's fetch (no store: each scenario is a fresh page's engine), the SDK, the pool. */
export function browserHost(control: string): ScenarioHost {
  return {
    runtime: 'browser', createFetch: (options) => createResilientFetch({ ...options, persist: false }), callLongTool,
    sdk: { Client, StreamableHTTPClientTransport }, chaos: chaosPool(control, { fetch: relayedFetch }),
  };
}

async function runCorpusInPage(sources: ScenarioSource[], control: string): Promise<string> {
  const report = renderReport(await runCorpus(sources, browserHost(control), {
    onScenario: (scenario) => void (document.body.textContent += `${scenario.ok ? 'ok  ' : 'FAIL'} ${scenario.name}\n`),
  }));
  document.body.textContent = report;
  return report;
}

interface UserAgentData {
  getHighEntropyValues(hints: string[]): Promise<{ fullVersionList?: { brand: string; version: string }[] }>;
}

/** The browser's full version (`Chromium 153.0.8010.0`): a user agent string may say only `153.0.0.0`. */
async function browserVersion(): Promise<string> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  const brands = (await data?.getHighEntropyValues(['fullVersionList']))?.fullVersionList ?? [];
  const chromium = brands.find((b) => b.brand === 'Chromium');
  return chromium ? `Chromium ${chromium.version}` : navigator.userAgent;
}

/** The shared overhead measurement in this page: `performance.now()` (coarsened by the browser), no CPU clock. */
async function measureOverheadInPage(control: string, size: keyof typeof RUNTIME_OVERHEAD_SIZES): Promise<RuntimeOverhead> {
  const overhead = await measureRuntimeOverhead(browserHost(control), RUNTIME_OVERHEAD_SIZES[size], {
    cpu: { unavailable: 'a page has no CPU clock' }, clock: 'performance.now(), coarsened by the browser to 0.1 ms', version: await browserVersion(),
  });
  document.body.textContent = JSON.stringify(overhead, null, 2);
  return overhead;
}

Object.assign(globalThis, { runCorpusInPage, measureOverheadInPage });
