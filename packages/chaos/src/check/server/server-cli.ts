import { parseArgs } from 'node:util';
import { ChaosInputError } from '../../faults.ts';
import { writeReport } from '../report-output.ts';
import { MODERN_REVISION } from './mcp-talk.ts';
import { scoreServer, type ScoreServerOptions } from './score-server.ts';
import { ruleLabel, SERVER_CHECKS } from './server-catalogue.ts';
import { renderServerJunit } from './server-report-junit.ts';
import { renderServerText, serverSummaryLine } from './server-report-text.ts';

/** The help text of `mcp-chaos check --server`. */
export const SERVER_CHECK_USAGE = `mcp-chaos check --server — score an MCP server's session contract

  --server URL          the server's MCP endpoint (the restart checks are skipped)
  --server-command "CMD"  or a command the check starts (through the shell) with a free port in
                        $PORT, waits for on 127.0.0.1, and restarts (stop by PID, start again)
  --port-env NAME       the variable that tells the command its port (default PORT)
  --path PATH           the MCP endpoint's path on the command's port (default /mcp)
  --idle-ms N           the server's idle budget: enables stream-keeps-alive (a GET stream held past it)
  --revision R          the revision to ask for (default 2025-11-25); 2026-07-28 scores a stateless server
  --request-timeout MS  the cap on each request (default 10000)
  --strict              a failed SHOULD-level check fails the run too (by default only MUST-level ones do)
  --json                the report as JSON on stdout (the summary line on stderr)
  --junit FILE          also write the report as JUnit XML
  --list                list the checks and exit

Each check names its rule: MUST or SHOULD of the MCP specification, JSON-RPC 2.0's (optional: MCP
sets no rule for an HTTP error's body), or the seed's session contract.

Exit status: 0 when every required check (MUST; with --strict, SHOULD too) passed, 1 when one failed, 2 on bad usage.`;

const REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', MODERN_REVISION];

type Parsed = 'help' | 'list' | { readonly options: ScoreServerOptions; readonly json: boolean; readonly junit?: string };

function integer(value: string | undefined, what: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ChaosInputError(`${what} must be an integer from ${min} to ${max}`);
  return n;
}

/** Whether these `mcp-chaos check` arguments ask for the server check (`--server` or `--server-command`). */
export function isServerCheck(args: readonly string[]): boolean {
  return args.some((a) => /^--server(-command)?(=|$)/.test(a));
}

/**
 * Reads the arguments of `mcp-chaos check --server …`; throws {@link ChaosInputError} saying what is wrong.
 *
 * @example
 * serverCheckArgs(['--server', 'http://127.0.0.1:3000/mcp', '--idle-ms', '200']);
 */
export function serverCheckArgs(args: readonly string[]): Parsed {
  // Before parsing: `--server --help` must show the help, not take `--help` for a URL.
  if (args.includes('--help') || args.includes('-h')) return 'help';
  if (args.includes('--list')) return 'list';
  const { values } = parseArgs({
    args: [...args], strict: true,
    options: {
      server: { type: 'string' }, 'server-command': { type: 'string' }, 'port-env': { type: 'string' }, path: { type: 'string' },
      'idle-ms': { type: 'string' }, revision: { type: 'string' }, 'request-timeout': { type: 'string' },
      json: { type: 'boolean' }, junit: { type: 'string' }, list: { type: 'boolean' }, strict: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (values.list) return 'list';
  if ((values.server === undefined) === (values['server-command'] === undefined)) throw new ChaosInputError('give one of --server URL and --server-command "CMD"');
  if (values.server !== undefined && !/^https?:\/\//.test(values.server)) throw new ChaosInputError('--server must be an http(s) URL');
  if (values['server-command'] !== undefined && !values['server-command'].trim()) throw new ChaosInputError('--server-command must not be empty');
  if (values.server !== undefined && (values['port-env'] !== undefined || values.path !== undefined)) throw new ChaosInputError('--port-env and --path go with --server-command');
  if (values['port-env'] !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(values['port-env'])) throw new ChaosInputError('--port-env must be a variable name');
  if (values.path !== undefined && !values.path.startsWith('/')) throw new ChaosInputError('--path must start with /');
  if (values.revision !== undefined && !REVISIONS.includes(values.revision)) throw new ChaosInputError(`--revision must be one of ${REVISIONS.join(', ')}`);
  const idleMs = integer(values['idle-ms'], '--idle-ms', 1, 3_600_000);
  const requestCapMs = integer(values['request-timeout'], '--request-timeout', 100, 600_000);
  const target = values.server !== undefined ? { url: values.server } : {
    command: values['server-command']!,
    ...(values['port-env'] === undefined ? {} : { portEnv: values['port-env'] }), ...(values.path === undefined ? {} : { path: values.path }),
  };
  return {
    json: values.json === true, ...(values.junit === undefined ? {} : { junit: values.junit }),
    options: {
      ...target, ...(idleMs === undefined ? {} : { idleMs }), ...(requestCapMs === undefined ? {} : { requestCapMs }),
      ...(values.revision === undefined ? {} : { revision: values.revision }), ...(values.strict ? { strict: true } : {}),
    },
  };
}

/**
 * `mcp-chaos check --server URL` / `--server-command "CMD"`: scores the server and prints the
 * report; resolves with the exit status.
 *
 * @example
 * process.exitCode = await serverCheckMain(['--server', 'http://127.0.0.1:3000/mcp']);
 */
export async function serverCheckMain(args: readonly string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = serverCheckArgs(args);
  } catch (error) {
    process.stderr.write(`mcp-chaos check: ${(error as Error).message}\n\n${SERVER_CHECK_USAGE}\n`);
    return 2;
  }
  if (parsed === 'help') return (process.stdout.write(`${SERVER_CHECK_USAGE}\n`), 0);
  if (parsed === 'list') {
    return (process.stdout.write(SERVER_CHECKS.map((c) => `${c.name.padEnd(30)} ${ruleLabel(c.level, c.source).padEnd(19)} ${c.title}\n`).join('')), 0);
  }
  return writeReport(await scoreServer(parsed.options), parsed, { text: renderServerText, junit: renderServerJunit, summary: serverSummaryLine });
}
