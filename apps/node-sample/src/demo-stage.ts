// What the demo's story needs of where it runs, and the lines it tells (see demo-story.ts).
import type { Fault, WireEntry } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The resilient client replaces a session idle this long. */
export const IDLE_BUDGET_MS = 1_500;

/**
 * The request timeout of the story's calls (but the plain client's in act 4, which makes a point
 * of it): a call takes under 2 s here, its recovery and the server's Retry-After included; a slow
 * machine must not turn a slow answer into a failure of the story, and 30 s is a hang.
 */
export const CALL_TIMEOUT_MS = 30_000;

/** One line of the story: a heading, an act, a part of act 4, a client's row, or a note under it. */
export type DemoLine =
  | { readonly kind: 'title' | 'act' | 'part' | 'note' | 'summary'; readonly text: string }
  | { readonly kind: 'row'; readonly side: 'plain' | 'resilient'; readonly text: string };

/** What the story needs of where it runs: a chaos server to drive, the runtime's engine, and where its lines go. */
export interface DemoStage {
  /** The chaos server's MCP endpoint. */
  readonly url: string;
  apply(faults: readonly Fault[]): Promise<void>;
  /** Clears the faults, the ledger and the wire log (sessions stay). */
  reset(): Promise<void>;
  /** The chaos server's execution ledger and wire log. */
  state(): Promise<{ readonly ledger: Readonly<Record<string, number>>; readonly log: readonly WireEntry[] }>;
  /** The runtime's `createResilientFetch`, with these options. */
  createResilientFetch(options: { idleBudgetMs: number; tools: { readOnlyTools: string[] }; fetch: typeof fetch; onEvent(event: ResilienceEvent): void }): typeof fetch;
  say(line: DemoLine): void;
}

/** One client of the story and its tally. */
export interface Side {
  readonly label: 'plain' | 'resilient';
  client: Client;
  calls: number;
  failed: number;
}
