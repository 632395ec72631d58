import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoreServer, type ScoreServerOptions, type ServerReport } from '@mcp-resilience/chaos';
import { freePort } from './free-port.ts';
import type { Launch } from './server-process.ts';
import {
  FASTMCP, FASTMCP_STATELESS, HONO_MCP, HONO_MCP_SESSIONS, MCP_FRAMEWORK, mcpProxy, SDK1_ONE_TRANSPORT, SDK1_PER_SESSION, SDK1_STATELESS,
  SDK2_MODERN, SDK2_SESSIONFUL, SERVER_EVERYTHING,
} from './servers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHAOS_CLI = fileURLToPath(new URL('../../../../packages/chaos/dist/cli.js', import.meta.url));

/**
 * The idle budget of the two servers scored with one (mcp-chaos, mcp-proxy's
 * `--sessionIdleTimeout`): long enough that no step of the check leaves a session it will use
 * idle that long on a loaded machine (mcp-chaos's own test uses 2 s).
 */
export const IDLE_MS = 3_000;

/** One wiring the server check scores: its row's label, how real-servers launches it, what the check is told. */
export interface ScoredWiring {
  readonly label: string;
  readonly launch: Launch;
  readonly options?: Omit<ScoreServerOptions, 'command' | 'url' | 'port' | 'portEnv'>;
  /** A wiring fixed here (a file in `src/servers/`): it must pass every required check. */
  readonly fixed?: boolean;
}

const port = (p: number) => ({ PORT: String(p) });
const entry = (name: string): Launch => ({ args: () => [join(ROOT, 'dist/servers', `${name}.js`)], env: port });

/** The wirings, in the table's order: mcp-chaos (the reference), those real-servers starts, then the fixed ones. */
export const SCORED_WIRINGS: readonly ScoredWiring[] = [
  {
    label: '`mcp-chaos --dialect amdahl` (idle budget 3 s): the reference',
    launch: { args: (p) => [CHAOS_CLI, '--port', String(p), '--dialect', 'amdahl', '--faults', JSON.stringify({ kind: 'idle-budget', ms: IDLE_MS })] },
    options: { idleMs: IDLE_MS },
  },
  { label: '`@modelcontextprotocol/server-everything`', launch: SERVER_EVERYTHING.launch },
  { label: 'SDK 1.x: its example (a transport per session)', launch: SDK1_PER_SESSION.launch },
  { label: 'SDK 1.x: one transport for the process', launch: SDK1_ONE_TRANSPORT.launch },
  { label: 'SDK 1.x: stateless', launch: SDK1_STATELESS.launch },
  { label: 'SDK 1.x: tasks (`sdk1-tasks.ts`, the example\'s map)', launch: entry('sdk1-tasks') },
  { label: 'SDK 2.x: the guide\'s session map', launch: SDK2_SESSIONFUL.launch },
  { label: 'SDK 2.x: `createMcpHandler`, scored at 2026-07-28', launch: SDK2_MODERN.launch, options: { revision: '2026-07-28' } },
  { label: '`fastmcp`', launch: FASTMCP.launch },
  { label: '`fastmcp` stateless', launch: FASTMCP_STATELESS.launch },
  { label: '`mcp-proxy --sessionIdleTimeout 3000`', launch: mcpProxy(IDLE_MS).launch, options: { idleMs: IDLE_MS } },
  { label: '`@hono/mcp`', launch: HONO_MCP.launch },
  { label: '`@hono/mcp` with sessions', launch: HONO_MCP_SESSIONS.launch },
  { label: '`mcp-framework`', launch: MCP_FRAMEWORK.launch },
  { label: '**fixed**: server-everything, 404 (`server-everything-fixed.ts`)', launch: entry('server-everything-fixed'), fixed: true },
  { label: '**fixed**: SDK 1.x example, the request\'s id (`sdk1-per-session-fixed.ts`)', launch: entry('sdk1-per-session-fixed'), fixed: true },
  { label: '**fixed**: SDK 1.x, a transport per session (`sdk1-one-transport-fixed.ts`)', launch: entry('sdk1-one-transport-fixed'), fixed: true },
  { label: '**fixed**: SDK 2.x session map (`sdk2-sessionful-fixed.ts`)', launch: entry('sdk2-sessionful-fixed'), fixed: true },
  { label: '**fixed**: `@hono/mcp`, a transport per session (`hono-mcp-sessions-fixed.ts`)', launch: entry('hono-mcp-sessions-fixed'), fixed: true },
];

/** A port no shell expands: stands for `$PORT` while a launch's arguments are written as a command. */
const PLACEHOLDER = 65_999;

/** A shell word: double-quoted, `$PORT` where the launch has the port. */
const word = (text: string) => `"${text.replace(/(["\\$`])/g, '\\$1').replaceAll(String(PLACEHOLDER), '$PORT')}"`;

/**
 * The command `mcp-chaos check --server-command` runs for a wiring, from the way real-servers
 * launches it: its environment (the port as `$PORT`, or in the variable the server reads) and
 * `node` with its arguments.
 *
 * @example
 * commandOf(SDK1_PER_SESSION.launch) // 'MCP_PORT="$PORT" "/usr/bin/node" "--import" "…/force-loopback.js" "…/simpleStreamableHttp.js"'
 */
export function commandOf(launch: Launch): string {
  const env = Object.entries(launch.env?.(PLACEHOLDER) ?? {}).map(([name, value]) => `${name}=${word(value)}`);
  return [...env, word(process.execPath), ...launch.args(PLACEHOLDER).map(word)].join(' ');
}

/** A wiring and its report. */
export interface ScoredRun {
  readonly wiring: ScoredWiring;
  readonly report: ServerReport;
}

/** Wirings scored at once: each is mostly waiting on its server, and 2 cores start 4 servers well within the check's minute. */
const AT_ONCE = 4;

/**
 * Scores every wiring once with `scoreServer` (the server check's `--server-command`: it starts
 * the command, restarts it for the restart checks, stops it by its PID), {@link AT_ONCE} at a
 * time, each on a port of real-servers' own (below the ephemeral range: nothing takes it while
 * the server restarts).
 *
 * @example
 * const runs = await scoreWirings();
 */
export async function scoreWirings(wirings: readonly ScoredWiring[] = SCORED_WIRINGS): Promise<ScoredRun[]> {
  const runs: ScoredRun[] = [];
  const queue = [...wirings];
  // A port is free when it is picked, not yet bound: two wirings started at once must not pick the same one.
  const given = new Set<number>();
  const unusedPort = async (): Promise<number> => {
    for (;;) {
      const picked = await freePort();
      if (!given.has(picked)) return given.add(picked), picked;
    }
  };
  const worker = async () => {
    for (let wiring = queue.shift(); wiring; wiring = queue.shift()) {
      const report = await scoreServer({ command: commandOf(wiring.launch), port: await unusedPort(), ...wiring.options });
      runs.push({ wiring, report });
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return wirings.map((w) => runs.find((r) => r.wiring === w)!);
}
