import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { BackendContext } from './backend.ts';
import { JOB_POLL_MS, record, slow, TOOL_ANNOTATIONS } from './tools.ts';

/** The longest a `job` task is kept after its creation (the server caps what a call asks for). */
const JOB_TTL_MS = 300_000;

const textResult = (text: string) => ({ content: [{ type: 'text' as const, text }] });

/**
 * Registers `job {key, ms, steps?, pollMs?}` on a session's SDK 1.x server, with the SDK's
 * own task support (`registerToolTask`, `execution.taskSupport: optional`): a call with
 * `params.task` gets a task at once (`pollInterval` `pollMs`, default {@link JOB_POLL_MS}; the
 * TTL asked for, at most {@link JOB_TTL_MS}) while the work runs in the background; a plain
 * call is served by the SDK polling the same task itself. Each run counts one execution under
 * `key` in the ledger when it starts, and answers `executions of KEY: N`. While it runs, the
 * task's status message says which step it is at, and a call that carried a progress token
 * gets `notifications/progress` on the session's standalone stream (its response is long gone).
 *
 * @example
 * registerJobTool(server, context); // before server.connect(transport)
 */
export function registerJobTool(server: McpServer, context: BackendContext): void {
  server.experimental.tasks.registerToolTask('job', {
    description: 'Takes ms milliseconds as a task (or a plain call), counting each run under key in the ledger.',
    inputSchema: { key: z.string(), ms: z.number(), steps: z.number().optional(), pollMs: z.number().optional() },
    annotations: TOOL_ANNOTATIONS.job,
    execution: { taskSupport: 'optional' },
  }, {
    async createTask({ key, ms, steps, pollMs }, extra) {
      const ttl = Math.min(extra.taskRequestedTtl ?? JOB_TTL_MS, JOB_TTL_MS);
      const task = await extra.taskStore.createTask({ ttl, pollInterval: pollMs ?? JOB_POLL_MS });
      const text = record(context.ledger, key);
      const progressToken = extra._meta?.progressToken;
      context.tasks.run(async (signal) => {
        await slow(ms, steps ?? 1, async (done, total) => {
          await extra.taskStore.updateTaskStatus(task.taskId, 'working', `step ${done} of ${total}`).catch(() => {});
          if (progressToken === undefined) return;
          await server.server.notification({ method: 'notifications/progress', params: { progressToken, progress: done, total } }).catch(() => {});
        }, signal, context.clock);
        if (!signal.aborted) await extra.taskStore.storeTaskResult(task.taskId, 'completed', textResult(text));
      });
      return { task };
    },
    getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as ReturnType<typeof textResult>,
  });
}
