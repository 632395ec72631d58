// The official SDK 2.x client with @mcp-resilience/node's fetch: node sdk-2x-resilient.mjs URL.
import { createResilientFetch } from '@mcp-resilience/node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { authProvider } from './oauth-provider.mjs';
import { context, runWorkload, url } from './workload.mjs';

const pin = context.revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
const fetch = createResilientFetch({ tools: { readOnlyTools: ['echo', 'slow'] }, renewsCredentials: true }); // the workload's read-only tools; its transport has an auth provider
const client = new Client({ name: 'churn-sdk-2x-resilient', version: '1.0.0' }, pin);
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch, authProvider: authProvider() }));
await runWorkload(client, (params) => client.callTool(params, { timeout: context.callTimeoutMs }));
