/**
 * The MCP tool annotations (hints, untrusted unless the server is trusted).
 *
 * @example
 * const annotations: ToolAnnotations = { readOnlyHint: true };
 * isReplaySafe({ method: 'tools/call', toolName: 'search', annotations }, 'safe', { trustAnnotations: true }) // true
 */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * The request a decision is about. `method` is absent for a POSTed JSON-RPC response and for
 * the standalone GET stream, which is marked `stream`.
 *
 * @example
 * const operation: Operation = { method: 'tools/call', toolName: 'search' };
 * isReplaySafe(operation, 'safe', { readOnlyTools: ['search'] }) // true
 */
export interface Operation {
  readonly method?: string;
  /** The standalone GET stream: opening it again changes nothing on the server. */
  readonly stream?: boolean;
  /** For `tools/call`: the tool's name and, when known, its annotations. */
  readonly toolName?: string;
  readonly annotations?: ToolAnnotations;
  /**
   * The application vouched for this one call as safe to repeat (an idempotency key, a
   * predicate of its own): under the `safe` policy it may be sent again like a read-only call.
   */
  readonly consent?: boolean;
  /**
   * A task-augmented request (`params.task`, 2025-11-25): it creates a task. Sent twice it
   * creates two, so no method makes it safe to send again: only a tool the application vouches
   * for, or its consent for this one call.
   */
  readonly task?: boolean;
}

/**
 * Which tools the application vouches for.
 *
 * @example
 * const tools: ToolTrust = { readOnlyTools: ['search'], idempotentTools: ['set_flag'] };
 * createRetryPolicy({ tools });
 */
export interface ToolTrust {
  readonly readOnlyTools?: readonly string[];
  readonly idempotentTools?: readonly string[];
  /** Believe the server's `readOnlyHint` / `idempotentHint` (only for servers you trust). */
  readonly trustAnnotations?: boolean;
}

/**
 * When a request whose outcome is unknown may be sent again: `safe` (read-only and idempotent
 * methods, tools the application trusts, calls it vouched for one by one), `always`, `never`, or
 * a function of the operation.
 * A request the server provably did not process is always safe to send again, whatever this says.
 *
 * @example
 * const replay: ReplayPolicy = (op) => op.toolName?.startsWith('get_') === true;
 * createRetryPolicy({ replay });
 */
export type ReplayPolicy = 'safe' | 'always' | 'never' | ((operation: Operation) => boolean);

/**
 * Methods whose repetition changes nothing on the server that matters. (`initialize` sent
 * again opens one more session at most: an orphan the server expires. `tasks/get`,
 * `tasks/list` and `tasks/result` only read a task; `tasks/cancel` sent twice cancels it once.)
 */
export const REPLAY_SAFE_METHODS: readonly string[] = [
  'initialize', 'ping', 'server/discover',
  'tools/list', 'prompts/list', 'prompts/get', 'completion/complete',
  'resources/list', 'resources/templates/list', 'resources/read', 'resources/subscribe', 'resources/unsubscribe',
  'logging/setLevel', 'tasks/get', 'tasks/list', 'tasks/result', 'tasks/cancel',
];

/**
 * Whether an operation whose outcome is unknown may be sent again.
 *
 * @example
 * isReplaySafe({ method: 'tools/list' })                                         // true
 * isReplaySafe({ method: 'tools/call', toolName: 'charge' })                     // false
 * isReplaySafe({ method: 'tools/call', toolName: 'search' }, 'safe', { readOnlyTools: ['search'] }) // true
 * isReplaySafe({ method: 'tools/call', toolName: 'charge', consent: true })     // true: the application vouched for it
 * isReplaySafe({ method: 'tools/call', toolName: 'report', task: true })        // false: it would create a second task
 */
export function isReplaySafe(operation: Operation, policy: ReplayPolicy = 'safe', trust: ToolTrust = {}): boolean {
  if (typeof policy === 'function') return policy(operation) === true;
  if (policy !== 'safe') return policy === 'always';
  const { method, toolName, annotations } = operation;
  if (operation.stream === true || operation.consent === true) return true;
  // Without a method, neither check below holds.
  if (REPLAY_SAFE_METHODS.includes(method!) && operation.task !== true) return true;
  if (method !== 'tools/call' || toolName === undefined) return false;
  if (trust.readOnlyTools?.includes(toolName) || trust.idempotentTools?.includes(toolName)) return true;
  return trust.trustAnnotations === true && (annotations?.readOnlyHint === true || annotations?.idempotentHint === true);
}
