import type { FaultPlanSnapshot } from './fault-plan.ts';
import type { Fault } from './faults.ts';
import type { SessionSnapshot } from './session-registry.ts';
import type { TaskBinding } from './task-binding.ts';
import type { WireEntry } from './wire-log.ts';

/**
 * A fault as it was applied: when, and (for `refuse` and a restart's `downMs`) until when.
 *
 * @example
 * chaos.state().history // [{ kind: 'restart', atMs: 1200, untilMs: 3200 }]
 */
export interface AppliedFault {
  readonly kind: Fault['kind'];
  readonly atMs: number;
  readonly untilMs?: number;
}

/**
 * What `GET {control}/state` returns.
 *
 * @example
 * const { uptimeSeconds, sessions, ledger } = chaos.state();
 */
export interface ChaosState {
  readonly mode: 'legacy' | 'modern' | 'proxy';
  readonly taskBinding: TaskBinding;
  readonly uptimeMs: number;
  readonly uptimeSeconds: number;
  readonly refusing: boolean;
  /** Every fault applied, oldest first (the last 1,000), on the server's clock since it started. */
  readonly history: readonly AppliedFault[];
  readonly faults: FaultPlanSnapshot;
  readonly sessions: readonly SessionSnapshot[];
  readonly ledger: Readonly<Record<string, number>>;
  readonly resource: string;
  readonly log: readonly WireEntry[];
}

/**
 * A running chaos server.
 *
 * @example
 * const chaos: ChaosServer = await startChaosServer();
 * await chaos.applyFaults([{ kind: 'restart' }]);
 * await chaos.stop();
 */
export interface ChaosServer {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** The control API, `http://127.0.0.1:PORT/_chaos`. */
  readonly control: string;
  applyFaults(faults: readonly Fault[]): Promise<void>;
  state(): ChaosState;
  /** Clears faults, the ledger and the wire log (sessions stay). */
  reset(): void;
  stop(): Promise<void>;
}
