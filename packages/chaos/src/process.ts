/**
 * Starting the processes a test depends on, waited for by readiness, never by a guess: a line
 * the process prints or a port that answers, within a minute that means "did not start", and a
 * failure that names the command and shows the end of what it printed
 * (`@mcp-resilience/chaos/process`). `startChaosProcess` and `startServerEverything` start theirs so.
 *
 * @example
 * import { startProcess } from '@mcp-resilience/chaos/process';
 * const server = await startProcess(process.execPath, ['server.js'], { ready: { line: (line) => /^listening on (\S+)/.exec(line)?.[1] } });
 * await server.stop();
 *
 * @module
 */
export { describeOutput, keepOutputTail, type OutputTail } from './output-tail.ts';
export {
  ProcessStartError, readyWithin, START_CAP_MS, startProcess, type ReadyLine, type ReadyProbe, type StartedProcess, type StartProcessOptions,
} from './start-process.ts';
