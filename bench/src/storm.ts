import { ratio, spreadOf, summarize, type Spread, type Summary } from '@mcp-resilience/scenarios';
import { startChaosProcess, type ChaosProcess } from './chaos-process.ts';
import { NO_GET_STREAM } from './recovery.ts';
import { connectClient, echo, echoWithWorkaround, sharedReconnect, timed } from './sdk-clients.ts';

export const STORM_CALLS = 200;

export interface StormSide {
  /** `initialize` requests the server saw in each storm. */
  readonly initializes: readonly number[];
  /** Calls that failed, over all storms. */
  readonly failedCalls: number;
  readonly latency: Summary;
  /** p99 of the storm against p99 of as many concurrent calls on a healthy session, same client. */
  readonly p99Ratio: number;
  /** That ratio storm by storm (each storm against the healthy burst just before it). */
  readonly p99RatioSpread: Spread;
  /** The p99 of each storm, in ms. */
  readonly p99MsByStorm: readonly number[];
}

export interface StormResult {
  readonly calls: number;
  readonly storms: number;
  /** In what order the sides ran, storm after storm (interleaved, so drift falls on all of them): one entry per storm of a side. */
  readonly order: readonly (keyof StormSides)[];
  readonly resilient: StormSide;
  /** A competent application: the failed calls share ONE reconnect (a promise kept while under way). The baseline. */
  readonly sharedWorkaround: StormSide;
  /** The naive workaround: each failed call opens a client of its own. */
  readonly workaround: StormSide;
  /** The engine's p99 over the sharing workaround's, storm by storm (storm i of each). */
  readonly p99VsShared: Spread;
}

type StormSides = Pick<StormResult, 'resilient' | 'sharedWorkaround' | 'workaround'>;

interface Storms {
  readonly initializes: number[];
  readonly latencies: number[];
  readonly healthy: number[];
  readonly p99Ratios: number[];
  readonly p99s: number[];
  failedCalls: number;
}

/** One storm on one side: a healthy burst, then the eviction of every session, then a burst that meets it. */
async function stormOnce(chaos: ChaosProcess, call: (text: string) => Promise<void>, label: string, into: Storms): Promise<void> {
  const burst = async (name: string) => {
    const times: number[] = [];
    await Promise.all(Array.from({ length: STORM_CALLS }, (_, i) =>
      timed(() => call(`${name} ${i}`)).then((ms) => times.push(ms), () => (into.failedCalls += 1))));
    return times;
  };
  const healthy = await burst(`${label} healthy`);
  await chaos.reset();
  await chaos.applyFaults([NO_GET_STREAM, { kind: 'evict', session: 'all' }]);
  const stormed = await burst(`${label} storm`);
  into.initializes.push((await chaos.state()).log.filter((e) => e.rpcMethod === 'initialize').length);
  into.healthy.push(...healthy);
  into.latencies.push(...stormed);
  const p99 = summarize(stormed).p99Ms;
  into.p99s.push(Math.round(p99 * 10) / 10);
  into.p99Ratios.push(ratio(p99, summarize(healthy).p99Ms));
}

function sideOf(s: Storms): StormSide {
  const latency = summarize(s.latencies);
  return {
    initializes: s.initializes, failedCalls: s.failedCalls, latency, p99Ratio: ratio(latency.p99Ms, summarize(s.healthy).p99Ms),
    p99RatioSpread: spreadOf(s.p99Ratios), p99MsByStorm: s.p99s,
  };
}

const emptyStorms = (): Storms => ({ initializes: [], latencies: [], healthy: [], p99Ratios: [], p99s: [], failedCalls: 0 });

/**
 * 200 concurrent calls meet one evicted session: how many `initialize` requests reach the
 * server and the p99 latency, for the engine (one shared re-initialization), for a competent
 * application's workaround (catch, and ONE reconnect shared by all the failed calls) and for the
 * naive one (each failed call opens a session of its own). The sides take turns, storm after
 * storm (engine, sharing workaround, naive workaround, then sharing workaround, engine, naive
 * workaround, …), so drift on the machine falls on all of them; the engine's p99 is compared with
 * the sharing workaround's storm by storm.
 *
 * @example
 * const { resilient, sharedWorkaround, workaround } = await measureStorm(1);
 * [resilient.initializes, sharedWorkaround.initializes, workaround.initializes]; // [[1], [1], [200]]
 */
export async function measureStorm(storms: number): Promise<StormResult> {
  const chaos = await startChaosProcess();
  const closes: (() => Promise<unknown>)[] = [];
  try {
    await chaos.applyFaults([NO_GET_STREAM]);
    const resilientClient = await connectClient(chaos.url, { tools: { readOnlyTools: ['echo'] } });
    closes.push(() => resilientClient.close().catch(() => {}));
    const shared = await sharedReconnect(chaos.url);
    closes.push(shared.close);
    const holder = { client: await connectClient(chaos.url) };
    closes.push(() => holder.client.close().catch(() => {}));
    const sides = {
      resilient: { call: (text: string) => echo(resilientClient, text), storms: emptyStorms() },
      sharedWorkaround: { call: shared.echo, storms: emptyStorms() },
      workaround: { call: (text: string) => echoWithWorkaround(holder, chaos.url, text), storms: emptyStorms() },
    };
    const order: (keyof StormSides)[] = [];
    for (let s = 0; s < storms; s++) {
      // The engine and the sharing workaround swap places storm by storm (each follows the naive
      // workaround's 200 reconnects in turn); the naive one, the slowest, closes each storm.
      const turn: (keyof StormSides)[] = s % 2 === 0 ? ['resilient', 'sharedWorkaround', 'workaround'] : ['sharedWorkaround', 'resilient', 'workaround'];
      for (const name of turn) {
        order.push(name);
        await stormOnce(chaos, sides[name].call, `${name} ${s}`, sides[name].storms);
      }
    }
    const [engine, sharing] = [sides.resilient.storms.p99s, sides.sharedWorkaround.storms.p99s];
    return {
      calls: STORM_CALLS, storms, order,
      resilient: sideOf(sides.resilient.storms), sharedWorkaround: sideOf(sides.sharedWorkaround.storms), workaround: sideOf(sides.workaround.storms),
      p99VsShared: spreadOf(engine.map((p99, i) => ratio(p99, sharing[i]!))),
    };
  } finally {
    await Promise.all(closes.map((close) => close()));
    await chaos.stop();
  }
}
