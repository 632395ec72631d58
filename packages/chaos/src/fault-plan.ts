import type { DialectName } from './dialect-responses.ts';
import type { Fault } from './faults.ts';
import type { DropPlan } from './stream-dropper.ts';

type StatusFault = Extract<Fault, { kind: 'status' }>;
type DropFault = Extract<Fault, { kind: 'drop-stream' }>;

/** What a request looks like to fault matching. */
export interface RequestShape {
  readonly httpMethod: string;
  /** A JSON-RPC request (it has an id), not a notification or a response. */
  readonly isRequest: boolean;
  readonly rpcMethod?: string;
}

/** The faults in force: persistent settings and the one-shot faults still pending. */
export interface FaultPlanSnapshot {
  readonly dialect: DialectName;
  readonly idleBudgetMs: number | null;
  readonly capacity: number | null;
  readonly pendingStatus: readonly { readonly status: number; readonly remaining: number }[];
  readonly pendingDrops: readonly { readonly afterEvents: number; readonly eventIds: boolean; readonly remaining: number }[];
}

/**
 * The faults that wait for requests: statuses and dropped streams for the next matching
 * requests, and the persistent idle budget, capacity and dialect.
 *
 * @example
 * const plan = new FaultPlan('typescript-sdk');
 * plan.add({ kind: 'status', status: 429, count: 2 });
 * plan.takeStatus({ httpMethod: 'POST', isRequest: true, rpcMethod: 'tools/call' }); // the 429 fault, once of two
 */
export class FaultPlan {
  dialect: DialectName;
  idleBudgetMs: number | null = null;
  capacity: number | null = null;
  #status: { fault: StatusFault; remaining: number }[] = [];
  #drops: { fault: DropFault; remaining: number }[] = [];

  constructor(readonly defaultDialect: DialectName) {
    this.dialect = defaultDialect;
  }

  /** Takes a persistent or pending fault; the others (evict, restart, refuse, …) act at once elsewhere. */
  add(fault: Fault): void {
    if (fault.kind === 'status') this.#status.push({ fault, remaining: fault.count ?? 1 });
    else if (fault.kind === 'drop-stream') this.#drops.push({ fault, remaining: fault.count ?? 1 });
    else if (fault.kind === 'idle-budget') this.idleBudgetMs = fault.ms;
    else if (fault.kind === 'capacity') this.capacity = fault.max;
    else if (fault.kind === 'dialect') this.dialect = fault.name;
  }

  /**
   * The status fault for this request, if one matches; counts it. `afterRun` picks the faults
   * that replace the answer of a request that ran (asked for just before it runs), else those
   * that answer instead of the server.
   */
  takeStatus(request: RequestShape, afterRun = false): StatusFault | undefined {
    const hit = this.#status.find(({ fault }) => (fault.afterRun === true) === afterRun &&
      (fault.httpMethod ?? 'POST') === request.httpMethod && (fault.rpcMethod === undefined || fault.rpcMethod === request.rpcMethod));
    if (!hit) return undefined;
    if (--hit.remaining === 0) this.#status = this.#status.filter((s) => s !== hit);
    return hit.fault;
  }

  /** The stream break for this POST request, if one matches (never for `initialize`, never for a notification); counts it. */
  takeDrop(request: RequestShape): DropPlan | undefined {
    if (request.httpMethod !== 'POST' || !request.isRequest || request.rpcMethod === undefined || request.rpcMethod === 'initialize') return undefined;
    const hit = this.#drops.find(({ fault }) => fault.rpcMethod === undefined || fault.rpcMethod === request.rpcMethod);
    if (!hit) return undefined;
    if (--hit.remaining === 0) this.#drops = this.#drops.filter((d) => d !== hit);
    const { afterEvents = 0, eventIds = true, retryMs } = hit.fault;
    return { afterEvents, eventIds, ...(retryMs === undefined ? {} : { retryMs }) };
  }

  clear(): void {
    this.dialect = this.defaultDialect;
    this.idleBudgetMs = null;
    this.capacity = null;
    this.#status = [];
    this.#drops = [];
  }

  snapshot(): FaultPlanSnapshot {
    return {
      dialect: this.dialect, idleBudgetMs: this.idleBudgetMs, capacity: this.capacity,
      pendingStatus: this.#status.map(({ fault, remaining }) => ({ status: fault.status, remaining })),
      pendingDrops: this.#drops.map(({ fault, remaining }) => ({ afterEvents: fault.afterEvents ?? 0, eventIds: fault.eventIds !== false, remaining })),
    };
  }
}
