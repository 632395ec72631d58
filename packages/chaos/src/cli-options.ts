import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ChaosServerOptions } from './chaos-options.ts';
import { parseControlOrigin } from './control-access.ts';
import { DIALECT_NAMES, type DialectName } from './dialect-responses.ts';
import { ChaosInputError, parseFaults, parseSchedule } from './faults.ts';
import { TASK_BINDINGS, type TaskBinding } from './task-binding.ts';

/** The CLI's help text. */
export const USAGE = `mcp-chaos — a fault-injecting MCP server (Streamable HTTP)

  --port N              port (default 0: any free port)
  --host H              address to bind (default 127.0.0.1)
  --mode legacy|modern  legacy: sessionful 2025-03-26 … 2025-11-25 (default); modern: 2026-07-28, stateless
  --upstream URL        put the faults in front of this Streamable HTTP endpoint instead
  --dialect NAME        how "session gone" is said: ${DIALECT_NAMES.join(', ')} (default typescript-sdk)
  --json-responses      answer requests with JSON bodies, not event streams (legacy mode)
  --task-binding session|server  tasks of the job tool belong to their session (default: lost
                        with it) or to the server (survive evictions, lost on a restart)
  --faults JSON         faults in force from the start (one or a list)
  --schedule FILE       a JSON list of { "atMs": …, "fault": {…} }
  --no-expose-session-id  do not expose Mcp-Session-Id through CORS (the common mistake)
  --control-origin ORIGIN  let pages from ORIGIN (http://127.0.0.1:5173) drive the control API
                        (repeatable; CORS for exactly those origins): any script of that origin can
                        then apply faults, read the wire log and start servers here

The first line on stdout is {"url": "…/mcp", "control": "…/_chaos"}.
Control API: POST {control}/faults, GET {control}/state, POST {control}/reset,
POST {control}/servers (a fresh server: {"url", "control"}; DELETE its control URL to stop it).
Live view: open {control}/ in a browser (sessions, faults and requests as they happen; {control}/live is its WebSocket feed).
Churn check: mcp-chaos check --client "CMD" scores an MCP client against session churn (mcp-chaos check --help).`;

/**
 * Reads the command line into server options; throws {@link ChaosInputError} on a bad value.
 *
 * @example
 * optionsFromArgs(['--port', '0', '--dialect', 'amdahl']); // { port: 0, dialect: 'amdahl' }
 */
export function optionsFromArgs(args: readonly string[]): ChaosServerOptions | 'help' {
  const { values } = parseArgs({
    args: [...args],
    options: {
      port: { type: 'string' }, host: { type: 'string' }, mode: { type: 'string' }, upstream: { type: 'string' },
      dialect: { type: 'string' }, faults: { type: 'string' }, schedule: { type: 'string' }, 'task-binding': { type: 'string' },
      'no-expose-session-id': { type: 'boolean' }, 'json-responses': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      'control-origin': { type: 'string', multiple: true },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ChaosInputError('--port must be 0 to 65535');
  if (values.mode !== undefined && values.mode !== 'legacy' && values.mode !== 'modern') throw new ChaosInputError('--mode must be legacy or modern');
  if (values.dialect !== undefined && !DIALECT_NAMES.includes(values.dialect as DialectName)) {
    throw new ChaosInputError(`--dialect must be one of ${DIALECT_NAMES.join(', ')}`);
  }
  const binding = values['task-binding'];
  if (binding !== undefined && !TASK_BINDINGS.includes(binding as TaskBinding)) throw new ChaosInputError('--task-binding must be session or server');
  const json = (text: string, what: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ChaosInputError(`${what} is not JSON`);
    }
  };
  return {
    port,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.mode === undefined ? {} : { mode: values.mode as 'legacy' | 'modern' }),
    ...(values.upstream === undefined ? {} : { upstream: new URL(values.upstream).href }),
    ...(values.dialect === undefined ? {} : { dialect: values.dialect as DialectName }),
    ...(values.faults === undefined ? {} : { faults: parseFaults(json(values.faults, '--faults')) }),
    ...(values.schedule === undefined ? {} : { schedule: parseSchedule(json(readFileSync(values.schedule, 'utf8'), '--schedule')) }),
    ...(values['no-expose-session-id'] ? { exposeSessionId: false } : {}),
    ...(values['json-responses'] ? { jsonResponses: true } : {}),
    ...(binding === undefined ? {} : { taskBinding: binding as TaskBinding }),
    ...(values['control-origin'] === undefined ? {} : { controlOrigins: values['control-origin'].map(parseControlOrigin) }),
  };
}
