import { parseArgs } from 'node:util';
import { ChaosInputError } from '../faults.ts';
import { SCENARIOS } from './catalogue.ts';
import { renderJunit } from './report-junit.ts';
import { writeReport } from './report-output.ts';
import { renderText, summaryLine } from './report-text.ts';
import { runCheck, type CheckOptions } from './run-check.ts';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CAP_MS } from './run-scenario.ts';
import { CONTEXT_ENV, SCENARIO_ENV } from './scenario.ts';
import { isServerCheck, serverCheckMain } from './server/server-cli.ts';

/** The help text of `mcp-chaos check`. */
export const CHECK_USAGE = `mcp-chaos check — score an MCP client against session churn

  --client "CMD"        the client command (required); run once per scenario with the server's URL
                        as its last argument, ${SCENARIO_ENV} and ${CONTEXT_ENV} set (the workload:
                        docs/churn-check.md)
  --scenario NAME       run only these scenarios (repeatable); --list names them
  --json                the report as JSON on stdout (the summary line on stderr)
  --junit FILE          also write the report as JUnit XML
  --concurrency N       scenarios at once, each on its own server (default 4)
  --call-timeout MS     the timeout the client is asked to apply to each call (default 15000)
  --timeout MS          a client still running after this long is killed: the scenario fails (default 60000)
  --repeat N            run each scenario N times; a check whose verdict differs is reported as varying
  --strict              the optional checks (resumed, session-kept) fail the run too
  --list                list the scenarios and exit

mcp-chaos check --server URL | --server-command "CMD" scores a server's session contract instead
(mcp-chaos check --server --help).

Exit status: 0 when every required check passed, 1 when one failed, 2 on bad usage.`;

type Parsed = { readonly list: true } | { readonly options: CheckOptions; readonly json: boolean; readonly junit?: string };

function positive(value: string | undefined, what: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ChaosInputError(`${what} must be an integer from 1 to ${max}`);
  return n;
}

/**
 * Reads the arguments of `mcp-chaos check`; throws {@link ChaosInputError} saying what is wrong.
 *
 * @example
 * checkArgs(['--client', 'node my-client.mjs', '--json']);
 */
export function checkArgs(args: readonly string[]): Parsed | 'help' {
  const { values } = parseArgs({
    args: [...args], strict: true,
    options: {
      client: { type: 'string' }, scenario: { type: 'string', multiple: true }, json: { type: 'boolean' }, junit: { type: 'string' },
      concurrency: { type: 'string' }, 'call-timeout': { type: 'string' }, timeout: { type: 'string' }, repeat: { type: 'string' }, strict: { type: 'boolean' }, list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (values.list) return { list: true };
  if (!values.client?.trim()) throw new ChaosInputError('--client "CMD" is required');
  const unknown = (values.scenario ?? []).filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length) throw new ChaosInputError(`no scenario ${unknown.join(', ')} (--list names them)`);
  const scenarios = values.scenario ? SCENARIOS.filter((s) => values.scenario!.includes(s.name)) : SCENARIOS;
  return {
    json: values.json === true, ...(values.junit === undefined ? {} : { junit: values.junit }),
    options: {
      client: values.client, scenarios,
      concurrency: positive(values.concurrency, '--concurrency', 4, 32),
      callTimeoutMs: positive(values['call-timeout'], '--call-timeout', DEFAULT_CALL_TIMEOUT_MS, 600_000),
      capMs: positive(values.timeout, '--timeout', DEFAULT_CAP_MS, 3_600_000),
      repeat: positive(values.repeat, '--repeat', 1, 100), ...(values.strict ? { strict: true } : {}),
    },
  };
}

/**
 * `mcp-chaos check …`: runs the check and prints the report; resolves with the exit status.
 * With `--server` or `--server-command` it scores a server instead ({@link serverCheckMain}).
 *
 * @example
 * process.exitCode = await checkMain(['--client', 'node my-client.mjs']);
 */
export async function checkMain(args: readonly string[]): Promise<number> {
  if (isServerCheck(args)) return serverCheckMain(args);
  let parsed: ReturnType<typeof checkArgs>;
  try {
    parsed = checkArgs(args);
  } catch (error) {
    process.stderr.write(`mcp-chaos check: ${(error as Error).message}\n\n${CHECK_USAGE}\n`);
    return 2;
  }
  if (parsed === 'help') return (process.stdout.write(`${CHECK_USAGE}\n`), 0);
  if ('list' in parsed) return (process.stdout.write(SCENARIOS.map((s) => `${s.name.padEnd(30)} ${s.title}\n`).join('')), 0);
  return writeReport(await runCheck(parsed.options), parsed, { text: renderText, junit: renderJunit, summary: summaryLine });
}
