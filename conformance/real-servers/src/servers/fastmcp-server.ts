/**
 * `fastmcp` (TypeScript, punkpeye) as its README starts it for Streamable HTTP:
 * `server.start({ transportType: 'httpStream', httpStream: { port } })`, here with
 * `host: '127.0.0.1'`; `FASTMCP_STATELESS=true` adds its documented `stateless: true`.
 *
 * @example
 * // PORT=3000 node dist/servers/fastmcp-server.js
 *
 * @module
 */
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { portFromEnv } from './port.ts';

const server = new FastMCP({ name: 'fastmcp-server', version: '1.0.0' });
server.addTool({
  name: 'echo',
  description: 'Echoes its message',
  parameters: z.object({ message: z.string() }),
  execute: async ({ message }) => message,
});
await server.start({
  transportType: 'httpStream',
  httpStream: { port: portFromEnv(), host: '127.0.0.1', ...(process.env.FASTMCP_STATELESS === 'true' ? { stateless: true } : {}) },
});
