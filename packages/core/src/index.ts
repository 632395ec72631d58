/**
 * @mcp-resilience/core — the pure decisions behind an MCP client that survives session
 * churn: no I/O, no timers, no clock and no randomness of its own.
 *
 * @example
 * import { classify, decide, FRESH_CALL } from '@mcp-resilience/core';
 * const verdict = classify({ kind: 'http', status: 404, revision: '2025-11-25', sessionIdSent: true, body });
 * const action = decide({ verdict, call: FRESH_CALL, operation: { method: 'tools/list' }, nowMs: Date.now(), random: Math.random() });
 * // action.type === 'reinitialize-and-replay'
 *
 * @module
 */
export * from './backoff.ts';
export * from './classify.ts';
export * from './decide.ts';
export * from './diagnose.ts';
export * from './dialects.ts';
export * from './errors.ts';
export * from './events.ts';
export * from './json-rpc.ts';
export type * from './observation.ts';
export * from './replay-safety.ts';
export * from './retry-after.ts';
export * from './retry-budget.ts';
export * from './revisions.ts';
export * from './session-change.ts';
export * from './session-tracker.ts';
export type * from './verdict.ts';
