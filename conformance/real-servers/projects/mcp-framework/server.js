/**
 * `mcp-framework` with its HTTP Stream transport as its README configures it
 * (`transport: { type: 'http-stream', options: { port, endpoint: '/mcp' } }`; it binds
 * 127.0.0.1 by default), the tool added with `addTool` instead of being discovered from a
 * `tools/` folder. Plain JavaScript in a project of its own: mcp-framework needs zod 3
 * resolved as its peer, and conformance/real-servers resolves zod 4.
 *
 * @example
 * // PORT=3000 node conformance/real-servers/projects/mcp-framework/server.js
 *
 * @module
 */
import { MCPServer, MCPTool } from 'mcp-framework';
import { z } from 'zod';

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error(`PORT must be a port number, got ${process.env.PORT}`);

const schema = z.object({ message: z.string().describe('What to echo') });

class EchoTool extends MCPTool {
  name = 'echo';
  description = 'Echoes its message';
  schema = schema;
  /** @param {{ message: string }} input */
  async execute(input) {
    return input.message;
  }
}

const server = new MCPServer({
  name: 'mcp-framework-server',
  version: '1.0.0',
  transport: { type: 'http-stream', options: { port, endpoint: '/mcp' } },
});
server.addTool(EchoTool);
await server.start();
