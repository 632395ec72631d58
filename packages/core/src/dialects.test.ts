import { describe, expect, it } from 'vitest';
import { matchDialect, SESSION_GONE_DIALECTS, type SessionGoneDialect } from './dialects.ts';

const rpc = (code: number, message: string, data?: unknown) => ({ code, message, ...(data === undefined ? {} : { data }) });

describe('matchDialect', () => {
  it('names each known server by its wire shape', () => {
    expect(matchDialect({ status: 404, rpc: rpc(-32000, 'Session not found. Please reinitialize.', { reason: 'session_not_found' }) })?.name).toBe('amdahl');
    expect(matchDialect({ status: 404, rpc: rpc(-32001, 'Session not found') })?.name).toBe('typescript-sdk');
    expect(matchDialect({ status: 404, rpc: rpc(-32600, 'Session not found') })?.name).toBe('python-sdk');
    expect(matchDialect({ status: 404, text: 'session not found\n' })?.name).toBe('go-sdk');
    expect(matchDialect({ status: 400, rpc: rpc(-32000, 'Bad Request: No valid session ID provided') })?.name).toBe('express-400');
    expect(matchDialect({ status: 400, text: 'Bad Request: No valid session ID provided' })?.name).toBe('python-sdk-400');
    expect(matchDialect({ status: 400, text: 'No active transport' })?.name).toBe('mcp-proxy-400');
    expect(matchDialect({ status: 400, rpc: rpc(-32000, 'Bad Request: Server not initialized') })?.name).toBe('typescript-sdk-uninitialized');
  });

  it('knows the one-transport SDK server after a restart only by its exact status, code and message', () => {
    const uninitialized = 'Bad Request: Server not initialized';
    expect(matchDialect({ status: 400, rpc: rpc(-32000, uninitialized) })).toMatchObject({ name: 'typescript-sdk-uninitialized', outcome: 'not-processed' });
    expect(matchDialect({ status: 400, rpc: rpc(-32600, uninitialized) })).toBeUndefined();
    expect(matchDialect({ status: 400, rpc: rpc(-32000, `${uninitialized}.`) })).toBeUndefined();
    expect(matchDialect({ status: 400, rpc: rpc(-32000, 'Invalid Request: Server already initialized') })).toBeUndefined();
    expect(matchDialect({ status: 400, text: uninitialized })).toBeUndefined();
    expect(matchDialect({ status: 500, rpc: rpc(-32000, uninitialized) })).toBeUndefined();
    expect(matchDialect({ rpc: rpc(-32000, uninitialized) })).toBeUndefined();
  });

  it('falls back to the spec rule for any other 404', () => {
    expect(matchDialect({ status: 404, text: '<html>Not Found</html>' })?.name).toBe('spec-404');
    expect(matchDialect({ status: 404, rpc: rpc(-32000, 'whatever') })?.name).toBe('spec-404');
  });

  it('matches a 400 only on its exact code and text', () => {
    expect(matchDialect({ status: 400, rpc: rpc(-32000, 'Bad Request: Mcp-Session-Id header is required') })).toBeUndefined();
    expect(matchDialect({ status: 400, rpc: rpc(-32600, 'Bad Request: No valid session ID provided') })).toBeUndefined();
    expect(matchDialect({ status: 400, text: 'bad request' })).toBeUndefined();
  });

  it('recognises the spellings a client surfaces, with no status', () => {
    expect(matchDialect({ rpc: rpc(-32000, 'Session not found. Please reinitialize.') })).toMatchObject({ name: 'session-not-found', outcome: 'not-processed' });
    expect(matchDialect({ rpc: rpc(-32000, 'Connection closed') })).toMatchObject({ name: 'connection-closed', outcome: 'unknown' });
    expect(matchDialect({ rpc: rpc(-32001, 'Request timed out') })).toBeUndefined();
  });

  it('tries extra rows first', () => {
    const extra: SessionGoneDialect[] = [{ name: 'gateway', status: 410, outcome: 'not-processed', spokenBy: ['a gateway'] }];
    expect(matchDialect({ status: 410 }, extra)?.name).toBe('gateway');
    expect(matchDialect({ status: 410 })).toBeUndefined();
    expect(matchDialect({ status: 404, rpc: rpc(-32001, 'Session not found') }, extra)?.name).toBe('typescript-sdk');
  });

  it('ends in the catch-all and names distinct rows', () => {
    const names = SESSION_GONE_DIALECTS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(SESSION_GONE_DIALECTS.filter((d) => d.status === 404).at(-1)?.name).toBe('spec-404');
  });
});
