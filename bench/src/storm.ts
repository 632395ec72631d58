import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startChaosProcess, type ChaosProcess } from './chaos-process.ts';
import { NO_GET_STREAM } from './recovery.ts';
import { connectClient, echo, echoWithWorkaround, timed } from './sdk-clients.ts';
import { ratio, summarize, type Summary } from '@mcp-resilience/scenarios';

export const STORM_CALLS = 200;

export interface StormSide {
  /** `initialize` requests the server saw in each storm. */
  readonly initializes: readonly number[];
  /** Calls that failed, over all storms. */
  readonly failedCalls: number;
  readonly latency: Summary;
  /** p99 of the storm against p99 of as many concurrent calls on a healthy session, same client. */
  readonly p99Ratio: number;
}

export interface StormResult {
  readonly calls: number;
  readonly storms: number;
  readonly resilient: StormSide;
  readonly workaround: StormSide;
}

async function storm(
  chaos: ChaosProcess, call: (text: string) => Promise<void>, storms: number,
): Promise<StormSide> {
  const initializes: number[] = [];
  const latencies: number[] = [];
  const healthy: number[] = [];
  let failedCalls = 0;
  const burst = (into: number[], label: string) => Promise.all(Array.from({ length: STORM_CALLS }, (_, i) =>
    timed(() => call(`${label} ${i}`)).then((ms) => into.push(ms), () => (failedCalls += 1))));
  for (let s = 0; s < storms; s++) {
    await burst(healthy, `healthy ${s}`);
    await chaos.reset();
    await chaos.applyFaults([NO_GET_STREAM, { kind: 'evict', session: 'all' }]);
    await burst(latencies, `storm ${s}`);
    initializes.push((await chaos.state()).log.filter((e) => e.rpcMethod === 'initialize').length);
  }
  const latency = summarize(latencies);
  return { initializes, failedCalls, latency, p99Ratio: ratio(latency.p99Ms, summarize(healthy).p99Ms) };
}

/**
 * 200 concurrent calls meet one evicted session: how many `initialize` requests reach the
 * server (the engine shares one re-initialization) and the p99 latency, against the
 * catch-and-reconnect workaround, where each failed call opens a session of its own.
 *
 * @example
 * const { resilient, workaround } = await measureStorm(1);
 * resilient.initializes; // [1]
 */
export async function measureStorm(storms: number): Promise<StormResult> {
  const chaos = await startChaosProcess();
  const clients: Client[] = [];
  try {
    await chaos.applyFaults([NO_GET_STREAM]);
    const resilientClient = await connectClient(chaos.url, { tools: { readOnlyTools: ['echo'] } });
    clients.push(resilientClient);
    const resilient = await storm(chaos, (text) => echo(resilientClient, text), storms);
    const holder = { client: await connectClient(chaos.url) };
    const workaround = await storm(chaos, (text) => echoWithWorkaround(holder, chaos.url, text), storms);
    clients.push(holder.client);
    return { calls: STORM_CALLS, storms, resilient, workaround };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await chaos.stop();
  }
}
