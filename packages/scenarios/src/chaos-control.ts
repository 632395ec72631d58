import type { Fault } from '@mcp-resilience/chaos/faults';
import { ScenarioError } from './errors.ts';
import type { ScenarioChaosOptions } from './scenario.ts';

/** The parts of `GET {control}/state` the runner reads. */
export interface ChaosStateView {
  readonly sessions: readonly { readonly ordinal: number; readonly openStreams: number; readonly subscriptions: readonly string[]; readonly logLevel?: string }[];
  readonly ledger: Readonly<Record<string, number>>;
  readonly log: readonly { readonly httpMethod: string; readonly rpcMethod?: string; readonly status?: number; readonly sessionOrdinal?: number }[];
}

/** One chaos server, for one scenario. */
export interface ChaosInstance {
  /** The MCP endpoint. */
  readonly url: string;
  applyFaults(faults: readonly Fault[]): Promise<void>;
  state(): Promise<ChaosStateView>;
  /** Stops it: nothing of it reaches the next scenario. */
  stop(): Promise<void>;
}

/** Where the runner gets a fresh chaos server per scenario. */
export interface ChaosControl {
  start(options: ScenarioChaosOptions): Promise<ChaosInstance>;
}

/** What the control API said: the `error` of its JSON answer, or the start of its text. */
function said(text: string): string {
  try {
    const { error } = JSON.parse(text) as { error?: unknown };
    if (typeof error === 'string') return error;
  } catch {
    // not JSON: the text as it came
  }
  return text.slice(0, 500);
}

async function request(fetcher: typeof fetch, url: string, method: string, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetcher(url, {
      method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new ScenarioError('CHAOS_CONTROL_FAILED', `chaos control ${method} ${url}: unreachable (${(error as Error).message})`, { cause: error });
  }
  const text = await response.text();
  if (!response.ok) throw new ScenarioError('CHAOS_CONTROL_FAILED', `chaos control ${method} ${url}: ${response.status} ${said(text)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ScenarioError('CHAOS_CONTROL_FAILED', `chaos control ${method} ${url}: not JSON: ${text.slice(0, 200)}`);
  }
}

/**
 * The chaos control client over HTTP: each `start` asks the `mcp-chaos` pool at `control` for
 * a fresh server (`POST {control}/servers`), whose own control URL then takes the faults and
 * answers the state; `stop` is `DELETE` on it. Web-standard `fetch` only, so it works from
 * Node, Deno, workerd and (with `mcp-chaos --control-origin`) a page. `fetch` defaults to the
 * global one, looked up on every request.
 *
 * @example
 * const chaos = await chaosPool('http://127.0.0.1:41233/_chaos').start({ dialect: 'amdahl' });
 * await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
 * await chaos.stop();
 */
export function chaosPool(control: string, options: { readonly fetch?: typeof fetch } = {}): ChaosControl {
  const fetcher: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const base = control.replace(/\/$/, '');
  return {
    async start(chaosOptions) {
      const created = (await request(fetcher, `${base}/servers`, 'POST', chaosOptions)) as { url?: unknown; control?: unknown };
      const { url, control: own } = created;
      if (typeof url !== 'string' || typeof own !== 'string') {
        throw new ScenarioError('CHAOS_CONTROL_FAILED', `chaos control POST ${base}/servers: no url and control in ${JSON.stringify(created)}`);
      }
      let stopped = false;
      return {
        url,
        applyFaults: async (faults) => void (await request(fetcher, `${own}/faults`, 'POST', faults)),
        state: async () => (await request(fetcher, `${own}/state`, 'GET')) as ChaosStateView,
        stop: async () => {
          if (stopped) return;
          stopped = true;
          await request(fetcher, own, 'DELETE');
        },
      };
    },
  };
}
