import type { SdkRequestOptions, TaskClient } from './sdk-tasks.ts';

/** Pages of `tools/list` read to find one tool, at most. */
const MAX_PAGES = 20;

/** Per client: each tool's `execution.taskSupport`, as `tools/list` said it. */
const known = new WeakMap<object, Map<string, unknown>>();

/**
 * A tool's `execution.taskSupport` (2025-11-25), learned from `tools/list` once per client: page
 * after page until the tool is found, and again when it is not known (the server's tools may have
 * changed). `undefined` for a tool the server does not list, or without the field.
 *
 * @example
 * await taskSupportOf(client, 'build-report', {}) // 'optional'
 */
export async function taskSupportOf(client: TaskClient, tool: string, options: SdkRequestOptions): Promise<unknown> {
  const tools = known.get(client);
  if (tools?.has(tool)) return tools.get(tool);
  const learned = new Map<string, unknown>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && !learned.has(tool); page++) {
    const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, options);
    for (const entry of listed.tools as { name?: unknown; execution?: { taskSupport?: unknown } }[]) {
      if (typeof entry?.name === 'string') learned.set(entry.name, entry.execution?.taskSupport);
    }
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  known.set(client, learned);
  return learned.get(tool);
}
