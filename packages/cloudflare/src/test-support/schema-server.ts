import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const OUTPUT_SCHEMA = {
  type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'], additionalProperties: false,
} as const;

/** A low-level SDK server (it does not check its own output): `weather` answers by its schema, `broken-weather` not. */
function mcpServer(): Server {
  const server = new Server({ name: 'schema-server', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ['weather', 'broken-weather'].map((name) => ({ name, inputSchema: { type: 'object' as const }, outputSchema: OUTPUT_SCHEMA })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const structuredContent = request.params.name === 'weather' ? { celsius: 21 } : { celsius: 'warm' };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  });
  return server;
}

/** Starts it on 127.0.0.1 (sessionful Streamable HTTP at `/mcp`); `stop()` closes it and its sessions. */
export async function startSchemaServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (!transport) {
        if (typeof id === 'string') return void res.writeHead(404).end();
        const created = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => void transports.set(sid, created) });
        created.onclose = () => void (created.sessionId && transports.delete(created.sessionId));
        await mcpServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch(() => res.headersSent || res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      for (const transport of transports.values()) await transport.close().catch(() => {});
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
