import { resilienceCodeOf } from '@mcp-resilience/node';
import { capped } from './capped.ts';
import type { Framework, Opened } from './frameworks.ts';
import type { RecipeModule } from './recipe-module.ts';

/** A fault and the calls that follow it: what each framework goes through, plain and with the engine. */
export interface Scenario {
  readonly name: 'eviction' | 'restart' | 'concurrent';
  /** As the page's tables name it. */
  readonly label: string;
  readonly fault: Record<string, unknown>;
  readonly calls: number;
  readonly concurrent: boolean;
  /** Of the calls, how many wait until the server answers again (after a restart's downtime). */
  readonly afterUp: number;
}

/**
 * How long a server restarting is down. The calls wait until it answers again: what a call sent
 * into the downtime gets depends on timing (the engine's jittered backoff, a framework's own
 * reconnect racing the restart), and a table that changes from run to run proves nothing.
 */
export const RESTART_DOWN_MS = 1_000;

export const SCENARIOS: readonly Scenario[] = [
  { name: 'eviction', label: 'eviction, then 3 calls', fault: { kind: 'evict', session: 'all' }, calls: 3, concurrent: false, afterUp: 0 },
  {
    name: 'restart', label: `restart (down ${RESTART_DOWN_MS / 1000} s), then 3 calls once it is back`,
    fault: { kind: 'restart', downMs: RESTART_DOWN_MS }, calls: 3, concurrent: false, afterUp: 3,
  },
  { name: 'concurrent', label: 'eviction, then 5 calls at once', fault: { kind: 'evict', session: 'all' }, calls: 5, concurrent: true, afterUp: 0 },
];

/** What one framework did in one scenario, as the page's tables show it. */
export interface Outcome {
  readonly answered: number;
  readonly calls: number;
  /** `initialize` requests the server received after the fault. */
  readonly initializes: number;
  /** The distinct errors the calls failed with, normalized (no port, no id), in the order seen. */
  readonly errors: readonly string[];
}

/** The cap on one call, on opening, and on closing: a framework that hangs shows as "no answer". */
export const CALL_CAP_MS = 20_000;

/**
 * An error as one line with nothing of this run in it: the engine's code when it has one,
 * else the message's first line with URLs, ports and ids replaced.
 *
 * @example
 * normalizeError(new TypeError('fetch failed')); // 'TypeError: fetch failed'
 */
export function normalizeError(error: unknown): string {
  const crossed = (error as { resilienceCode?: unknown } | null)?.resilienceCode; // an engine error thrown inside workerd
  const code = resilienceCodeOf(error) ?? (typeof crossed === 'string' ? crossed : undefined);
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = (raw.split('\n')[0] ?? '')
    .replace(/https?:\/\/127\.0\.0\.1:\d+\/[^\s"'),]*/g, '{url}')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:{port}')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}')
    .replace(/\b[0-9a-f]{32,}\b/gi, '{id}');
  const text = line.length > 140 ? `${line.slice(0, 139)}…` : line;
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}

/**
 * Until the server takes new connections again after a restart's downtime: its state says
 * `refusing: false` (a control connection kept alive is answered during the downtime; a new one
 * is refused). Asked every 100 ms, at most for the cap.
 */
async function untilUp(stateUrl: string): Promise<void> {
  const deadline = Date.now() + CALL_CAP_MS;
  for (;;) {
    const up = await fetch(stateUrl).then((r) => r.json()).then((state: { refusing?: boolean }) => state.refusing === false, () => false);
    if (up) return;
    if (Date.now() > deadline) throw new Error(`hung: ${stateUrl} still refused new connections ${CALL_CAP_MS / 1000} s after a restart whose downtime is ${RESTART_DOWN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function control(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Runs one scenario: a fresh chaos server from the pool, the recipe opened on it, one call that
 * must be answered, the wire log cleared, the fault, the calls (each capped), and the count of
 * `initialize`s that reached the server after the fault. The server is stopped at the end.
 *
 * @example
 * const outcome = await runScenario(chaos.control, framework, recipe, SCENARIOS[0]!);
 */
export async function runScenario(pool: string, framework: Framework, recipe: RecipeModule, scenario: Scenario): Promise<Outcome> {
  const server = (await control(`${pool}/servers`, { method: 'POST', body: '{}' })) as { url: string; control: string };
  let opened: Opened | undefined;
  try {
    opened = await capped(recipe.open(server.url), CALL_CAP_MS, 'open');
    const warm = await capped(framework.callEcho(opened, 'warm-up'), CALL_CAP_MS, 'call');
    if (!JSON.stringify(warm).includes('warm-up')) throw new Error(`${framework.name}: the first call answered ${JSON.stringify(warm)}`);
    await control(`${server.control}/reset`, { method: 'POST' });
    await control(`${server.control}/faults`, { method: 'POST', body: JSON.stringify(scenario.fault) });
    const texts = Array.from({ length: scenario.calls }, (_, i) => `call-${i + 1}`);
    const call = (text: string) => capped(framework.callEcho(opened!, text), CALL_CAP_MS, 'call')
      .then((answer) => (JSON.stringify(answer).includes(text) ? { ok: true as const } : { ok: false as const, error: `answered ${JSON.stringify(answer).slice(0, 80)}` }))
      .catch((error: unknown) => ({ ok: false as const, error: normalizeError(error) }));
    const results = [];
    if (scenario.concurrent) results.push(...(await Promise.all(texts.map(call))));
    else {
      for (const [i, text] of texts.entries()) {
        if (i === scenario.calls - scenario.afterUp) await untilUp(`${server.control}/state`);
        results.push(await call(text));
      }
    }
    await untilUp(`${server.control}/state`);
    const state = (await control(`${server.control}/state`)) as { log: { rpcMethod?: string }[] };
    return {
      answered: results.filter((r) => r.ok).length,
      calls: scenario.calls,
      initializes: state.log.filter((entry) => entry.rpcMethod === 'initialize').length,
      errors: [...new Set(results.flatMap((r) => (r.ok ? [] : [r.error])))],
    };
  } finally {
    await capped(opened?.close() ?? Promise.resolve(), CALL_CAP_MS, 'close').catch(() => undefined);
    await control(server.control, { method: 'DELETE' }).catch(() => undefined);
  }
}
