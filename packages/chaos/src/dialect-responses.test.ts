import { classify } from '@mcp-resilience/core';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, sessionGoneResponse, type DialectName } from './dialect-responses.ts';

/** Each dialect and the row of core's table that must recognise it (on a request that carried a session id). */
const CORE_ROW: Record<DialectName, string> = {
  amdahl: 'amdahl',
  'typescript-sdk': 'typescript-sdk',
  'python-sdk': 'python-sdk',
  'go-sdk': 'go-sdk',
  'express-400': 'express-400',
  'server-everything': 'express-400',
  'typescript-sdk-express': 'typescript-sdk',
  'typescript-sdk-uninitialized': 'typescript-sdk-uninitialized',
  'mcp-proxy': 'typescript-sdk',
};

describe('sessionGoneResponse', () => {
  it.each(DIALECT_NAMES)('%s is recognised by core as session gone, and only with a session id', (name) => {
    const { status, headers, body } = sessionGoneResponse(name, { requestId: 3, uptimeSeconds: 1 });
    const observation = { kind: 'http', revision: '2025-11-25', httpMethod: 'POST', rpcMethod: 'tools/call', status, body, contentType: headers['content-type'] ?? null } as const;
    expect(classify({ ...observation, sessionIdSent: true })).toMatchObject({ kind: 'session-gone', dialect: CORE_ROW[name], outcome: 'not-processed' });
    expect(classify({ ...observation, sessionIdSent: false })).toMatchObject({ kind: 'client-error', status });
  });

  it('writes the measured answers byte for byte', () => {
    const bytes = (name: DialectName) => {
      const { status, headers, body } = sessionGoneResponse(name, { requestId: 3, uptimeSeconds: 1 });
      return [status, headers['content-type'] ?? null, body];
    };
    expect(bytes('server-everything')).toEqual([400, 'application/json; charset=utf-8', '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}']);
    expect(bytes('typescript-sdk-express')).toEqual([404, 'application/json; charset=utf-8', '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}']);
    expect(bytes('typescript-sdk-uninitialized')).toEqual([400, 'application/json', '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}']);
    expect(bytes('mcp-proxy')).toEqual([404, 'application/json; charset=utf-8', '{"error":{"code":-32001,"message":"Session not found"},"id":null,"jsonrpc":"2.0"}']);
  });
});
