/**
 * The official TypeScript SDK 1.x server with its own task support, wired as its shipped example
 * `simpleStreamableHttp` is (a transport per session in a map, unknown id → 404, one
 * `InMemoryTaskStore` shared by the sessions, the same `delay` task tool), with one difference:
 * the task store is given no session id. The SDK's `TaskStore` interface allows it ("calls that
 * pass no sessionId are not restricted"), and 2025-11-25 binds a task to its authorization
 * context, not to its session: here a task outlives the session that created it. The shipped
 * example itself binds tasks to their session.
 *
 * @example
 * // PORT=3000 node dist/servers/sdk1-tasks.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { InMemoryTaskStore, type TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

const memory = new InMemoryTaskStore();
const taskStore: TaskStore = {
  createTask: (params, requestId, request) => memory.createTask(params, requestId, request),
  getTask: (taskId) => memory.getTask(taskId),
  storeTaskResult: (taskId, status, result) => memory.storeTaskResult(taskId, status, result),
  getTaskResult: (taskId) => memory.getTaskResult(taskId),
  updateTaskStatus: (taskId, status, message) => memory.updateTaskStatus(taskId, status, message),
  listTasks: (cursor) => memory.listTasks(cursor),
};

function serverForSession(): McpServer {
  const server = new McpServer({ name: 'sdk1-tasks', version: '1.0.0' }, { capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskStore });
  server.experimental.tasks.registerToolTask('delay', {
    description: 'Delays for duration ms, as a task',
    inputSchema: { duration: z.number() },
  }, {
    async createTask({ duration }, { taskStore: store, taskRequestedTtl }) {
      const task = await store.createTask({ ttl: taskRequestedTtl ?? null, pollInterval: 200 });
      void (async () => {
        await new Promise((resolve) => setTimeout(resolve, duration));
        await store.storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text: `Completed ${duration}ms delay` }] });
      })().catch(() => {});
      return { task };
    },
    getTask: (_args, { taskId, taskStore: store }) => store.getTask(taskId),
    getTaskResult: async (_args, { taskId, taskStore: store }) => (await store.getTaskResult(taskId)) as { content: [] },
  });
  return server;
}

const sessions = new Map<string, StreamableHTTPServerTransport>();
const notFound = (res: Response) => res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });

async function handle(req: Request, res: Response): Promise<void> {
  const id = req.headers['mcp-session-id'];
  const transport = typeof id === 'string' ? sessions.get(id) : undefined;
  if (transport) return transport.handleRequest(req, res, req.body);
  if (typeof id === 'string') return void notFound(res);
  if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
    return void res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
  }
  const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
  });
  created.onclose = () => void (created.sessionId && sessions.delete(created.sessionId));
  await serverForSession().connect(created);
  await created.handleRequest(req, res, req.body);
}

const app = createMcpExpressApp();
app.all('/mcp', (req, res) => void handle(req, res));
app.listen(portFromEnv(), '127.0.0.1');
