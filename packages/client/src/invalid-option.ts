import { ResilienceError } from '@mcp-resilience/core';

/**
 * The `INVALID_OPTION` error for an engine option that breaks its rule, worded as core words its own.
 *
 * @example
 * throw invalidOption('lineages.max', 'an integer >= 1'); // "lineages.max must be an integer >= 1"
 */
export function invalidOption(option: string, rule: string): ResilienceError {
  return new ResilienceError({ code: 'INVALID_OPTION', message: `${option} must be ${rule}`, details: { option } });
}
