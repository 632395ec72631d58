/**
 * @mcp-resilience/chaos — a fault-injecting MCP server for testing clients against session
 * churn, in process or as the `mcp-chaos` CLI.
 *
 * @example
 * import { startChaosServer } from '@mcp-resilience/chaos';
 * const chaos = await startChaosServer({ dialect: 'amdahl' });
 * // point a client at chaos.url; POST faults to `${chaos.control}/faults`
 * await chaos.stop();
 *
 * @module
 */
export { manualClock, REAL_CLOCK, type ChaosClock, type ManualClock } from './chaos-clock.ts';
export { startChaosProcess, type ChaosProcess } from './chaos-process.ts';
export { MAX_POOL_SERVERS, type PoolEntry } from './server-pool.ts';
export { parsePoolServerOptions, type PoolServerOptions } from './pool-options.ts';
export { startChaosServer } from './chaos-server.ts';
export type { AppliedFault, ChaosServer, ChaosState } from './chaos-contract.ts';
export type { ChaosServerOptions } from './chaos-options.ts';
export { DIALECT_NAMES, sessionGoneResponse, type DialectName } from './dialect-responses.ts';
export { ChaosInputError, parseFault, parseFaults, parseSchedule, type Fault, type ScheduledFault } from './faults.ts';
export { ProtectedResource, RESOURCE_METADATA_PATH, type AuthOrder, type TokenPair } from './protected-resource.ts';
export { RESOURCE_URI } from './resource.ts';
export { LIVE_FULL_CLOSE_CODE, LIVE_LIMITS, type LiveLimits } from './live-hub.ts';
export {
  LIVE_SCHEMA_VERSION, LIVE_STOPPED_CLOSE_CODE, REQUEST_OUTCOMES, type HelloMessage, type LiveEvent, type LiveMessage, type RequestOutcome, type SessionEndReason,
  type StoppedMessage,
} from './live-view/live-schema.ts';
export { SLOW_MAX_MS, TOOL_ANNOTATIONS } from './tools.ts';
export { mergeRuns, type RunCheck } from './check/repeat-runs.ts';
export { scoreServer, type ScoreServerOptions, type ServerReport } from './check/server/score-server.ts';
export { SERVER_CHECKS, type ServerCheckName, type ServerCheckResult } from './check/server/server-catalogue.ts';
export { renderServerJunit } from './check/server/server-report-junit.ts';
export { renderServerText, serverSummaryLine } from './check/server/server-report-text.ts';
export { TASK_BINDINGS, type TaskBinding } from './task-binding.ts';
export type { SessionSnapshot } from './session-registry.ts';
export type { WireEntry } from './wire-log.ts';
