import { describe, expect, it } from 'vitest';
import { classify } from './classify.ts';
import type { Observation } from './observation.ts';

const LEGACY = { revision: '2025-11-25', sessionIdSent: true, httpMethod: 'POST', rpcMethod: 'tools/call' } as const;
const MODERN = { revision: '2026-07-28', sessionIdSent: false, httpMethod: 'POST', rpcMethod: 'tools/call' } as const;
const http = (status: number, body?: unknown, extra: Partial<Observation> = {}): Observation =>
  ({ kind: 'http', status, body, ...LEGACY, ...extra }) as Observation;

const SEED_BODY = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Session not found. Please reinitialize.', data: { reason: 'session_not_found', action: 'reinitialize_and_replay_once', server_uptime_seconds: 47 } },
  id: 12,
});

describe('classify: session gone', () => {
  it('reads the seed contract with its uptime', () => {
    expect(classify(http(404, SEED_BODY))).toEqual({ kind: 'session-gone', dialect: 'amdahl', outcome: 'not-processed', serverUptimeSeconds: 47 });
  });

  it('needs a session id on the request', () => {
    expect(classify(http(404, SEED_BODY, { sessionIdSent: false }))).toEqual({ kind: 'client-error', status: 404, code: -32000 });
  });

  it('needs a sessionful revision', () => {
    expect(classify(http(404, SEED_BODY, { revision: '2026-07-28' }))).toEqual({ kind: 'client-error', status: 404, code: -32000 });
    expect(classify(http(404, '{"error":{"code":-32601,"message":"Method not found"}}', MODERN))).toEqual({ kind: 'method-not-found' });
  });

  it('drops an uptime that is not a non-negative number', () => {
    for (const uptime of [-1, '47', null, { s: 1 }]) {
      const body = { error: { code: -32000, message: 'x', data: { reason: 'session_not_found', server_uptime_seconds: uptime } } };
      expect(classify(http(404, body))).toEqual({ kind: 'session-gone', dialect: 'amdahl', outcome: 'not-processed' });
    }
  });

  it('reads the surfaced spellings, "Connection closed" as an unknown outcome', () => {
    const surfaced = (code: number, message: string, extra = {}): Observation => ({ kind: 'rpc-error', code, message, ...LEGACY, ...extra });
    expect(classify(surfaced(-32000, 'MCP error -32000: Connection closed'))).toEqual({ kind: 'session-gone', dialect: 'connection-closed', outcome: 'unknown' });
    expect(classify(surfaced(-32000, 'Session not found. Please reinitialize.'))).toEqual({ kind: 'session-gone', dialect: 'session-not-found', outcome: 'not-processed' });
    expect(classify(surfaced(-32000, 'Connection closed', MODERN))).toEqual({ kind: 'outcome-unknown', reason: 'connection-broken' });
    expect(classify(surfaced(-32001, 'MCP error -32001: Request timed out'))).toEqual({ kind: 'outcome-unknown', reason: 'timeout' });
    expect(classify(surfaced(-32602, 'Invalid params'))).toEqual({ kind: 'client-error', code: -32602 });
  });
});

describe('classify: HTTP', () => {
  it('backs off 429 and 503 with their Retry-After', () => {
    expect(classify(http(429, '', { retryAfter: '3' }))).toEqual({ kind: 'rate-limited', retryAfter: { kind: 'delay', ms: 3000 } });
    expect(classify(http(503, '<html>down</html>', { retryAfter: 'later' }))).toEqual({ kind: 'unavailable', retryAfter: { kind: 'invalid', raw: 'later' } });
    expect(classify(http(429, undefined, MODERN))).toEqual({ kind: 'rate-limited' });
  });

  it('reads a 503 as not processed only in the server\'s own words: a Retry-After or a JSON-RPC error body', () => {
    const rpc = '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Server is closed"},"id":1}';
    expect(classify(http(503, rpc))).toEqual({ kind: 'unavailable' });
    expect(classify(http(503, '', { retryAfter: '2' }))).toEqual({ kind: 'unavailable', retryAfter: { kind: 'delay', ms: 2000 } });
    // a gateway's page after it forwarded the request: the call may have run
    expect(classify(http(503, '<html>Service Unavailable</html>', { contentType: 'text/html' }))).toEqual({ kind: 'server-error', status: 503, retryable: true });
    expect(classify(http(503))).toEqual({ kind: 'server-error', status: 503, retryable: true });
    expect(classify(http(503, '', { retryAfter: '  ' }))).toEqual({ kind: 'server-error', status: 503, retryable: true });
    expect(classify(http(503, '{"error":"overloaded"}'))).toEqual({ kind: 'server-error', status: 503, retryable: true });
  });

  it('tells retryable server errors from 501 and 505', () => {
    expect(classify(http(502, '<html>Bad Gateway</html>'))).toEqual({ kind: 'server-error', status: 502, retryable: true });
    expect(classify(http(501))).toEqual({ kind: 'server-error', status: 501, retryable: false });
    expect(classify(http(505))).toEqual({ kind: 'server-error', status: 505, retryable: false });
  });

  it('passes other client errors as final', () => {
    expect(classify(http(401, '{"error":{"code":-32001,"message":"Unauthorized"}}'))).toEqual({ kind: 'client-error', status: 401, code: -32001 });
    expect(classify(http(405, '', { httpMethod: 'GET', sessionIdSent: false }))).toEqual({ kind: 'client-error', status: 405 });
  });

  it('reads 2026-07-28 version errors', () => {
    const body = { error: { code: -32022, message: 'Unsupported', data: { supported: ['2025-11-25', 7, '2026-07-28'] } } };
    expect(classify(http(400, body, MODERN))).toEqual({ kind: 'version-unsupported', supported: ['2025-11-25', '2026-07-28'] });
    expect(classify(http(400, { error: { code: -32020, message: 'Mismatch' } }, MODERN))).toEqual({ kind: 'client-error', status: 400, code: -32020 });
  });

  it('calls a 2xx with a foreign content type malformed', () => {
    expect(classify(http(200, undefined, { contentType: 'text/html; charset=utf-8' }))).toEqual({ kind: 'malformed', contentType: 'text/html' });
    expect(classify(http(200, undefined, { contentType: 'Application/JSON; charset=utf-8' }))).toEqual({ kind: 'success' });
    expect(classify(http(200, undefined, { contentType: 'text/event-stream' }))).toEqual({ kind: 'success' });
    expect(classify(http(202))).toEqual({ kind: 'success' });
    // Express's res.sendStatus(202) body, a 204, and a DELETE's reply carry no message: any content type will do.
    expect(classify(http(202, 'Accepted', { contentType: 'text/plain; charset=utf-8' }))).toEqual({ kind: 'success' });
    expect(classify(http(204, undefined, { contentType: 'text/html' }))).toEqual({ kind: 'success' });
    expect(classify(http(200, 'OK', { contentType: 'text/plain', httpMethod: 'DELETE' }))).toEqual({ kind: 'success' });
  });
});

describe('classify: streams and the network', () => {
  const ended = (extra: object): Observation => ({ kind: 'stream-ended', ...LEGACY, ...extra });

  it('resumes only with an event id, on a revision that can', () => {
    expect(classify(ended({ lastEventId: 'e7', retryMs: 250 }))).toEqual({ kind: 'broken-stream', resumable: true, lastEventId: 'e7', retryMs: 250 });
    expect(classify(ended({}))).toEqual({ kind: 'broken-stream', resumable: false });
    expect(classify(ended({ lastEventId: '' }))).toEqual({ kind: 'broken-stream', resumable: false });
    expect(classify(ended({ lastEventId: 'e7', ...MODERN }))).toEqual({ kind: 'broken-stream', resumable: false });
  });

  it('drops a retry value that is not a whole number of ms', () => {
    expect(classify(ended({ lastEventId: 'e', retryMs: -5 }))).toEqual({ kind: 'broken-stream', resumable: true, lastEventId: 'e' });
    expect(classify(ended({ lastEventId: 'e', retryMs: Number.NaN }))).toEqual({ kind: 'broken-stream', resumable: true, lastEventId: 'e' });
  });

  it('tells a refused connection from a broken one', () => {
    expect(classify({ kind: 'network', phase: 'before-send', ...LEGACY })).toEqual({ kind: 'not-processed', reason: 'connection-refused' });
    expect(classify({ kind: 'network', phase: 'after-send', ...LEGACY })).toEqual({ kind: 'outcome-unknown', reason: 'connection-broken' });
    expect(classify({ kind: 'timeout', ...LEGACY })).toEqual({ kind: 'outcome-unknown', reason: 'timeout' });
  });

  it('uses extra dialects', () => {
    const dialects = [{ name: 'gateway-410', status: 410, outcome: 'not-processed', spokenBy: [] }] as const;
    expect(classify(http(410), { dialects })).toEqual({ kind: 'session-gone', dialect: 'gateway-410', outcome: 'not-processed' });
  });
});
