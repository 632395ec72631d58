// The official SDK 2.x client, plain: node sdk-2x.mjs URL. It speaks 2026-07-28 when asked to.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { authProvider } from './oauth-provider.mjs';
import { context, runWorkload, url } from './workload.mjs';

const pin = context.revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
const client = new Client({ name: 'churn-sdk-2x', version: '1.0.0' }, pin);
await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: authProvider() }));
await runWorkload(client, (params) => client.callTool(params, { timeout: context.callTimeoutMs }));
