import { resilienceCodeOf } from '@mcp-resilience/core';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Rng } from './soak-random.ts';

/** The chaos server's tools: echo read-only, add idempotent, record not idempotent, slow read-only with progress. */
export type SoakTool = 'echo' | 'add' | 'record' | 'slow';

/**
 * What the soak vouches for, as an application would: which tools may be sent again.
 *
 * @example
 * createResilientFetch({ tools: SOAK_TRUST });
 */
export const SOAK_TRUST = { readOnlyTools: ['echo', 'slow'], idempotentTools: ['add'] } as const;

/**
 * Whether a call of this tool may be replayed (the soak's goal for these: no user-visible error).
 *
 * @example
 * isReplaySafe('record') // false
 */
export const isReplaySafe = (tool: SoakTool): boolean => tool !== 'record';

/** One call to make: its label (also the ledger key of a `record`), tool and arguments. */
export interface PlannedCall {
  readonly label: string;
  readonly tool: SoakTool;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The share of each tool in the workload. */
const MIX: readonly (readonly [SoakTool, number])[] = [['echo', 0.3], ['add', 0.25], ['record', 0.3], ['slow', 0.15]];

/**
 * The call numbered `index`: a tool drawn from the mix (30 % echo, 25 % add, 30 % record,
 * 15 % slow) and its arguments. `slow` runs 10–40 ms with 2–3 progress notifications.
 *
 * @example
 * planCall(createRng(1), 7); // { label: 'c7', tool: 'record', args: { key: 'c7' } }
 */
export function planCall(rng: Rng, index: number): PlannedCall {
  const label = `c${index}`;
  let draw = rng.next();
  let tool: SoakTool = 'echo';
  for (const [name, share] of MIX) {
    tool = name;
    if ((draw -= share) < 0) break;
  }
  switch (tool) {
    case 'echo': return { label, tool, args: { text: `${label}:${rng.int(0, 1e6)}` } };
    case 'add': return { label, tool, args: { a: rng.int(-1000, 1000), b: rng.int(0, 1e6) } };
    case 'record': return { label, tool, args: { key: label } };
    case 'slow': return { label, tool, args: { ms: rng.int(10, 40), steps: rng.int(2, 3) } };
  }
}

/**
 * The text a call's result must carry: what the chaos server's tool answers (a `record`
 * executed once says so).
 *
 * @example
 * expectedText({ label: 'c1', tool: 'add', args: { a: 2, b: 3 } }) // '5'
 */
export function expectedText(call: PlannedCall): string {
  switch (call.tool) {
    case 'echo': return String(call.args.text);
    case 'add': return String(Number(call.args.a) + Number(call.args.b));
    case 'record': return `executions of ${String(call.args.key)}: 1`;
    case 'slow': return `slept ${Number(call.args.ms)} ms`;
  }
}

/**
 * The first text content of a tool result, if any.
 *
 * @example
 * resultText({ content: [{ type: 'text', text: '5' }] }) // '5'
 */
export function resultText(value: unknown): string | undefined {
  const content = (value as { content?: readonly { type?: string; text?: string }[] } | undefined)?.content;
  return content?.[0]?.text;
}

/**
 * A short code for how a call failed, as its caller sees it: the engine's error code
 * (`OUTCOME_UNKNOWN`, … whether thrown or surfaced in the SDK's JSON-RPC error), else
 * `HTTP_<status>`, `MCP_<code>` or the error's name.
 *
 * @example
 * errorCodeOf(new McpError(-32001, 'Request timed out')) // 'MCP_-32001'
 */
export function errorCodeOf(error: unknown): string {
  const code = resilienceCodeOf(error);
  if (code !== undefined) return code;
  if (error instanceof StreamableHTTPError) return `HTTP_${String(error.code)}`;
  if (error instanceof McpError) return `MCP_${error.code}`;
  if (error instanceof Error) return error.name || 'Error';
  return typeof error;
}
