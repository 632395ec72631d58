// mcp-remote, the stdio proxy, driven by the official SDK 1.x client over stdio: node mcp-remote.mjs URL.
// Its settings go to a temporary folder (MCP_REMOTE_CONFIG_DIR), removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { context, runWorkload, skipIfProtected, skipUnless, url } from './workload.mjs';

skipUnless(['2025-11-25'], 'mcp-remote');
skipIfProtected('mcp-remote takes no token to refresh: it logs in through a browser (OAuth) or sends fixed headers');
const proxy = join(createRequire(import.meta.url).resolve('mcp-remote/package.json'), '../dist/proxy.js');
const config = mkdtempSync(join(tmpdir(), 'churn-mcp-remote-'));
process.once('exit', () => rmSync(config, { recursive: true, force: true }));
const transport = new StdioClientTransport({
  command: process.execPath, args: [proxy, url, '--transport', 'http-only'],
  env: { ...process.env, MCP_REMOTE_CONFIG_DIR: config }, stderr: 'inherit',
});
const client = new Client({ name: 'churn-mcp-remote', version: '1.0.0' });
await client.connect(transport);
await runWorkload(client, (params) => client.callTool(params, undefined, { timeout: context.callTimeoutMs }));
