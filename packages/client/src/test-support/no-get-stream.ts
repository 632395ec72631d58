import type { Fault } from '@mcp-resilience/chaos';

/**
 * A chaos server without the optional standalone stream: every GET answered 405, as many servers
 * do. The SDK then holds no stream open, so a session is idle between requests, and no reconnect
 * of that stream (a second after an eviction ends it) can race what a test counts.
 *
 * @example
 * chaos = await startChaosServer({ faults: [NO_GET_STREAM] });
 */
export const NO_GET_STREAM: Fault = { kind: 'status', status: 405, httpMethod: 'GET', count: 1_000 };
