import { fileURLToPath } from 'node:url';

/** A client of the scoreboard: its column, the adapter that runs it, and the plain client it is compared with. */
export interface ScoreboardClient {
  readonly name: string;
  /** The adapter in `clients/`. */
  readonly file: string;
  /** One of this project's: it must pass every check. */
  readonly ours?: true;
  /** The plain client of its line: doing worse than it anywhere is a finding. */
  readonly plain?: string;
  /** Scenarios whose score this client does not repeat run to run (its own races): shown as `varies`, out of its totals. */
  readonly varies?: readonly string[];
}

/**
 * The columns of the scoreboard, in order: the official SDK clients of both lines, plain and
 * with `@mcp-resilience/node`'s fetch, and mcp-remote (a stdio proxy, driven by the SDK 1.x
 * client over stdio).
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
];

/**
 * The adapter's command, as `mcp-chaos check --client` takes it.
 *
 * @example
 * clientCommand(CLIENTS[0]); // 'node /…/clients/sdk-1x.mjs'
 */
export function clientCommand(client: ScoreboardClient): string {
  return `node ${fileURLToPath(new URL(`../clients/${client.file}`, import.meta.url))}`;
}
