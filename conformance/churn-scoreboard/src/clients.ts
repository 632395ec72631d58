import { fileURLToPath } from 'node:url';

/** A client of the scoreboard: its column, the adapter that runs it, and the plain client it is compared with. */
export interface ScoreboardClient {
  readonly name: string;
  /** The adapter in `clients/`, and what it is given before the URL (a framework adapter: `plain` or `engine`). */
  readonly file: string;
  readonly mode?: 'plain' | 'engine';
  /** One of this project's: it must pass every check. */
  readonly ours?: true;
  /** The plain client of its line: doing worse than it anywhere is a finding. */
  readonly plain?: string;
  /**
   * The checks whose verdict this client does not repeat run to run (its own races), by scenario:
   * each shown as `varies` in its cell and left out of the totals. Every other check of the
   * scenario is shown and counted as seen, so it must repeat (the test compares it with the table).
   */
  readonly varies?: Varies;
}

/** Checks that vary run to run, by scenario: `{ 'busy-eviction': ['reinitialized'] }`. */
export type Varies = Readonly<Record<string, readonly string[]>>;

/**
 * The checks of `scenario` that `client` declares varying (none when it declares none).
 *
 * @example
 * variesOf(CLIENTS[4], 'concurrent-dead-session'); // ['one-initialize']
 */
export function variesOf(client: ScoreboardClient, scenario: string): readonly string[] {
  return client.varies?.[scenario] ?? [];
}

/** A framework's two columns: its recipe plain, and with the engine (compared with plain). */
function framework(name: string, file: string, varies: { plain?: Varies; engine?: Varies } = {}): ScoreboardClient[] {
  return [
    { name, file, mode: 'plain', ...(varies.plain ? { varies: varies.plain } : {}) },
    { name: `${name} + ours`, file, mode: 'engine', plain: name, ...(varies.engine ? { varies: varies.engine } : {}) },
  ];
}

/**
 * The columns of the scoreboard, in order: the official SDK clients of both lines, plain and
 * with `@mcp-resilience/node`'s fetch, mcp-remote (a stdio proxy, driven by the SDK 1.x client
 * over stdio), and the agent frameworks of docs/frameworks.md, plain and with the engine.
 *
 * @example
 * CLIENTS.map((c) => c.name);
 */
export const CLIENTS: readonly ScoreboardClient[] = [
  { name: 'SDK 1.x', file: 'sdk-1x.mjs' },
  { name: 'SDK 1.x + ours', file: 'sdk-1x-resilient.mjs', ours: true, plain: 'SDK 1.x' },
  { name: 'SDK 2.x', file: 'sdk-2x.mjs' },
  { name: 'SDK 2.x + ours', file: 'sdk-2x-resilient.mjs', ours: true, plain: 'SDK 2.x' },
  // mcp-remote's races of its own, found by running its column's two racing scenarios 37 times (11
  // alone, 26 two or three at once on 2 busy cores; 7 of them its whole column): every check not
  // named here gave the same verdict in all 37, and the other scenarios did not vary in the 7.
  {
    name: 'mcp-remote', file: 'mcp-remote.mjs', plain: 'SDK 1.x', varies: {
      // c2 waits for its timeout every time (no-hang failed 37 of 37). The SDK then cancels it: the
      // notification meets the 404 and mcp-remote begins a re-initialization, racing c3, which goes
      // out with the dead id (404), with none (400) or on the new session. So reinitialized (failed 7
      // times: c3 failed and the workload closed before the initialize went out), dead-id-dropped
      // (passed 6) and calls-answered (passed 8, under load only) all vary.
      'busy-eviction': ['reinitialized', 'dead-id-dropped', 'calls-answered'],
      // Of 20 calls on a dead session, a call whose 404 comes back before the new session is open
      // fails (calls-answered failed 37 of 37: 19 calls lost in every run alone, 3 to 19 under
      // load); under load it sometimes opens more than one new session (one-initialize failed 11
      // of 26 under load, 0 of 11 alone), and sends a call on the dead id after the 404 of another
      // had reached it (dead-id-dropped, issue 38: failed on a loaded machine, passed on the table's run).
      'concurrent-dead-session': ['one-initialize', 'dead-id-dropped'],
    },
  },
  // The agent frameworks, each its recipe of docs/frameworks.md, plain and with the engine (`+ ours`).
  ...framework('AI SDK', 'ai-sdk.mjs'),
  ...framework('Mastra', 'mastra.mjs'),
  ...framework('LangChain', 'langchain.mjs'),
  ...framework('OpenAI Agents', 'openai-agents.mjs'),
];

/**
 * The adapter's command, as `mcp-chaos check --client` takes it.
 *
 * @example
 * clientCommand(CLIENTS[0]); // 'node /…/clients/sdk-1x.mjs'
 */
export function clientCommand(client: ScoreboardClient): string {
  return `node ${fileURLToPath(new URL(`../clients/${client.file}`, import.meta.url))}${client.mode ? ` ${client.mode}` : ''}`;
}
