/**
 * What a chaos server takes, without the server: fault and schedule parsing, the dialect
 * names and the options of a pool server. No `node:` import anywhere below it, so a runner in
 * Deno, a Worker or a page can check a fault before it sends it
 * (`@mcp-resilience/chaos/faults`).
 *
 * @example
 * import { parseFaults } from '@mcp-resilience/chaos/faults';
 * parseFaults([{ kind: 'evict', session: 'all' }]);
 *
 * @module
 */
export { DIALECT_NAMES, type DialectName } from './dialect-responses.ts';
export { ChaosInputError, parseFault, parseFaults, parseSchedule, type Fault, type ScheduledFault } from './faults.ts';
export { parsePoolServerOptions, type PoolServerOptions } from './pool-options.ts';
export { TASK_BINDINGS, type TaskBinding } from './task-binding.ts';
