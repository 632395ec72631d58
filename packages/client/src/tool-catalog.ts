import type { ToolAnnotations } from '@mcp-resilience/core';
import { isAnswerTo, type RpcMessage } from './messages.ts';

const HINTS = ['readOnlyHint', 'idempotentHint', 'destructiveHint', 'openWorldHint'] as const;

function annotationsOf(value: unknown): ToolAnnotations | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const hints = Object.fromEntries(HINTS.flatMap((hint) => {
    const given = (value as Record<string, unknown>)[hint];
    return typeof given === 'boolean' ? [[hint, given]] : [];
  }));
  return Object.keys(hints).length > 0 ? hints : undefined;
}

/**
 * The tool annotations a server advertised on the current session of one endpoint, learned from
 * the `tools/list` answers that pass through the engine (every page of them) and forgotten when
 * the server says its tools changed (`notifications/tools/list_changed`) or a new session opens,
 * until the next list. They are hints:
 * the replay policy believes them only with `tools.trustAnnotations`.
 *
 * @example
 * catalog.learn(request, answer);
 * catalog.annotations('echo') // { readOnlyHint: true, ... }
 */
export class ToolCatalog {
  #tools = new Map<string, ToolAnnotations>();

  /** Takes a `tools/list` request and its answer; a first page (no cursor) replaces what was known. */
  learn(request: RpcMessage, answer: RpcMessage): void {
    if (request.id == null || !isAnswerTo(answer, request.id)) return;
    const tools = (answer.result as { tools?: unknown } | undefined)?.tools;
    if (!Array.isArray(tools)) return;
    if (request.params?.cursor === undefined) this.forget();
    for (const tool of tools as { name?: unknown; annotations?: unknown }[]) {
      const annotations = annotationsOf(tool?.annotations);
      if (typeof tool?.name === 'string' && annotations) this.#tools.set(tool.name, annotations);
    }
  }

  /** Reads a message the server sent: a change of its tools makes what was learned stale. */
  notice(message: RpcMessage): void {
    if (message.method === 'notifications/tools/list_changed') this.forget();
  }

  /** Forgets every tool: a new session's server has said nothing yet. */
  forget(): void {
    this.#tools = new Map();
  }

  annotations(tool: string): ToolAnnotations | undefined {
    return this.#tools.get(tool);
  }
}
