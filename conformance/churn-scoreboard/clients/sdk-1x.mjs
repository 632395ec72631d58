// The official SDK 1.x client, plain: node sdk-1x.mjs URL (run by `mcp-chaos check`).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { authProvider } from './oauth-provider.mjs';
import { context, runWorkload, skipUnless, url } from './workload.mjs';

skipUnless(['2025-11-25'], 'the SDK 1.x client');
const client = new Client({ name: 'churn-sdk-1x', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: authProvider() }));
await runWorkload(client, (params) => client.callTool(params, undefined, { timeout: context.callTimeoutMs }));
