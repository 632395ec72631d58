// The official SDK 1.x client with @mcp-resilience/node's fetch: node sdk-1x-resilient.mjs URL.
import { createResilientFetch } from '@mcp-resilience/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { authProvider } from './oauth-provider.mjs';
import { context, runWorkload, skipUnless, url } from './workload.mjs';

skipUnless(['2025-11-25'], 'the SDK 1.x client');
const fetch = createResilientFetch({ tools: { readOnlyTools: ['echo', 'slow'] }, renewsCredentials: true }); // the workload's read-only tools; its transport has an auth provider
const client = new Client({ name: 'churn-sdk-1x-resilient', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch, authProvider: authProvider() }));
await runWorkload(client, (params) => client.callTool(params, undefined, { timeout: context.callTimeoutMs }));
