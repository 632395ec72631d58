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
  /** Scenarios whose score this client does not repeat run to run (its own races): shown as `varies`, out of its totals. */
  readonly varies?: readonly string[];
}

/** A framework's two columns: its recipe plain, and with the engine (compared with plain). */
function framework(name: string, file: string, varies: { plain?: readonly string[]; engine?: readonly string[] } = {}): ScoreboardClient[] {
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
  // After an eviction mid-stream, whether mcp-remote answers the next call depends on which of its
  // streams meets the dead session first: 1/4 and 2/4 both came out on the same machine. With 20
  // calls on a dead session, it sometimes sends a second initialize (one-initialize failed in one
  // clean-clone run, passed in the next on the same machine): a race of its own between them.
  { name: 'mcp-remote', file: 'mcp-remote.mjs', plain: 'SDK 1.x', varies: ['busy-eviction', 'concurrent-dead-session'] },
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
