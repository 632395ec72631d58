import { expect, it } from 'vitest';
import { describeFramework } from './describe-framework.ts';

const run = describeFramework('cloudflare-agents');

it('Cloudflare Agents: connects to 127.0.0.1 (the scenarios) and refuses a private address, as the page says', () => {
  expect(run().rows.every((row) => row.engine.answered > 0)).toBe(true);
  expect(run().notes.privateAddress).toBe('Error: Blocked URL: http://10.0.0.1/mcp — MCP client connections to private/internal addresses are not allowed');
});
