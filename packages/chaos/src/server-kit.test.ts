import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { scoreServer } from './check/server/score-server.ts';
import { perSessionHandler, requestIdOf, sessionGone } from './server-kit.ts';

describe('sessionGone', () => {
  it("answers 404 with the request's id and the seed's data; null only where no id can be read", () => {
    const gone = sessionGone({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, 41);
    expect(gone.status).toBe(404);
    expect(gone.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(gone.body)).toEqual({
      jsonrpc: '2.0', id: 7,
      error: { code: -32000, message: 'Session not found. Please reinitialize.', data: { reason: 'session_not_found', action: 'reinitialize_and_replay_once', server_uptime_seconds: 41 } },
    });
    expect([requestIdOf({ id: 'a' }), requestIdOf(undefined), requestIdOf([{ id: 1 }]), requestIdOf({ method: 'notifications/initialized' })]).toEqual(['a', null, null, null]);
  });
});

describe('perSessionHandler', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const handle = perSessionHandler(async (register) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: register });
      const mcp = new McpServer({ name: 'server-kit-test', version: '1.0.0' });
      mcp.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
      await mcp.connect(transport);
      return transport;
    });
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString();
      await handle(req, res, text ? JSON.parse(text) : undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('keeps the session contract with the SDK 1.x transport: every check the server check can run by URL passes', async () => {
    const report = await scoreServer({ url });
    const notPassed = report.checks.filter((c) => c.status !== 'passed').map((c) => c.name);
    expect(notPassed).toEqual(['restart-404', 'uptime-younger-than-session', 'stream-keeps-alive', 'no-session-id', 'unknown-method-404']);
    expect(report.requiredFailed).toBe(0);
  }, 60_000);
});
