import { DEFAULT_BUSY_WINDOW_MS, type Diagnosis, type LossFacts } from './diagnose.ts';

/**
 * One exchange on a session as a bug report keeps it: its method and status, no ids, no bodies.
 *
 * @example
 * const exchanges: ExchangeNote[] = [{ method: 'tools/call', status: 200, atMs: 1_000 }];
 * lossReport(facts, diagnoseLoss(facts), exchanges);
 */
export interface ExchangeNote {
  /** The JSON-RPC method, or the HTTP method for a request without one (the GET stream, a DELETE). */
  readonly method: string;
  /** The HTTP status, or `network` when no response came. */
  readonly status: number | 'network';
  readonly atMs: number;
}

/**
 * What a server's maintainers need to look into a session they dropped while it was in use
 * (`evicted-while-busy`): ages and uptime, why the client judged the session busy, and its last
 * exchanges with their offsets from the session's start. Nothing in it identifies the session.
 *
 * @example
 * const report: LossReport | undefined = lossReport(facts, diagnosis, exchanges);
 * if (report) console.log(JSON.stringify(report)); // for the server's maintainers: no ids, no bodies
 */
export interface LossReport {
  readonly sessionAgeMs: number;
  readonly idleMs: number;
  readonly serverUptimeSeconds?: number;
  readonly busy: {
    /** `stream-open`: the standalone GET stream was open; `recent-exchange`: the last exchange was within the window. */
    readonly because: 'stream-open' | 'recent-exchange';
    readonly windowMs: number;
  };
  readonly exchanges: readonly { readonly method: string; readonly status: number | 'network'; readonly offsetMs: number }[];
}

/** The most exchanges a report lists: the last ones. */
export const REPORTED_EXCHANGES = 20;

/**
 * The bug report for a loss diagnosed `evicted-while-busy`, or `undefined` for any other cause.
 *
 * @example
 * const facts = { sessionStartedAtMs: 0, lastActivityAtMs: 9_000, failedAtMs: 10_000, serverUptimeSeconds: 3_600 };
 * lossReport(facts, diagnoseLoss(facts), [{ method: 'tools/call', status: 200, atMs: 9_000 }])
 * // { sessionAgeMs: 10000, idleMs: 1000, serverUptimeSeconds: 3600,
 * //   busy: { because: 'recent-exchange', windowMs: 60000 }, exchanges: [{ method: 'tools/call', status: 200, offsetMs: 9000 }] }
 */
export function lossReport(facts: LossFacts, diagnosis: Diagnosis, exchanges: readonly ExchangeNote[]): LossReport | undefined {
  if (diagnosis.cause !== 'evicted-while-busy') return undefined;
  const { cause: _, suspectedServerBug: __, ...figures } = diagnosis; // sessionAgeMs, idleMs, serverUptimeSeconds
  return {
    ...figures,
    busy: { because: facts.streamOpen === true ? 'stream-open' : 'recent-exchange', windowMs: facts.busyWindowMs ?? DEFAULT_BUSY_WINDOW_MS },
    exchanges: exchanges.slice(-REPORTED_EXCHANGES).map(({ method, status, atMs }) => ({
      method, status, offsetMs: Math.max(0, atMs - facts.sessionStartedAtMs),
    })),
  };
}
