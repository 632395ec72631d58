import { createResilientFetch, describeEvent, type ResilienceEvent } from '@mcp-resilience/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/server-process.ts';
import { SDK1_PER_SESSION } from './support/servers.ts';

let server: RunningServer | undefined;
beforeAll(async () => void (server = await startServer(SDK1_PER_SESSION.launch)));
afterAll(() => server?.stop());

describe('an answer no dialect row knows, to a request that carried a session id (the official SDK 1.32.2 server)', () => {
  it('reaches the caller as it is and is told as an unrecognised-answer event, once, with the request it met', async () => {
    const events: ResilienceEvent[] = [];
    const engine = createResilientFetch({ onEvent: (event) => events.push(event) });
    const transport = new StreamableHTTPClientTransport(new URL(server!.url), { fetch: engine });
    const client = new Client({ name: 'unrecognised', version: '0' });
    await client.connect(transport);
    try {
      // A request the server refuses for a reason of its own (a protocol version it does not speak), on a live session.
      const response = await engine(server!.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json', accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '1999-01-01',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'u1', method: 'tools/list' }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('Unsupported protocol version: 1999-01-01');
      const told = events.filter((e) => e.type === 'unrecognised-answer');
      expect(told).toEqual([expect.objectContaining({
        type: 'unrecognised-answer', method: 'tools/list', status: 400, code: -32000,
        message: expect.stringMatching(/^Bad Request: Unsupported protocol version: 1999-01-01/),
      })]);
      expect(JSON.stringify(told)).not.toContain(transport.sessionId!);
      expect(describeEvent(told[0]!)).toContain('which no "session gone" dialect knows');
      // The session was not declared lost: the next call goes on it.
      await expect(client.callTool({ name: 'echo', arguments: { message: 'still here' } })).resolves.toBeDefined();
      expect(events.filter((e) => e.type === 'session-lost')).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
