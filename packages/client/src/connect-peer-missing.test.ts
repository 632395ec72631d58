import { isResilienceError } from '@mcp-resilience/core';
import { describe, expect, it, vi } from 'vitest';
import { connect } from './connect.ts';

// The SDK is an optional peer: here it is "not installed" (its import fails as a missing package's does).
vi.mock('@modelcontextprotocol/sdk/client/index.js', () => {
  throw Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk'"), { code: 'ERR_MODULE_NOT_FOUND' });
});

describe('connect without the SDK installed', () => {
  it('rejects with PEER_MISSING naming the package to install, the import failure as its cause', async () => {
    const error = await connect('http://127.0.0.1:9/mcp').then(() => undefined, (e: unknown) => e);
    expect(isResilienceError(error, 'PEER_MISSING')).toBe(true);
    expect(error).toMatchObject({ details: { package: '@modelcontextprotocol/sdk' }, message: expect.stringMatching(/npm i @modelcontextprotocol\/sdk/) });
    expect((error as Error).cause).toBeDefined();
  });
});
