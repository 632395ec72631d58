import { describe, expect, it } from 'vitest';
import { classify } from './classify.ts';
import type { Observation } from './observation.ts';
import { redactSessionId } from './redact-session-id.ts';
import { UNRECOGNISED_TEXT_LIMIT, unrecognisedAnswer } from './unrecognised.ts';

const http = (status: number, body: string, more: Partial<Extract<Observation, { kind: 'http' }>> = {}): Observation =>
  ({ kind: 'http', status, revision: '2025-11-25', sessionIdSent: true, body, ...more });
const rpc = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
const of = (o: Observation, id?: string) => unrecognisedAnswer(o, classify(o), id);

describe('unrecognisedAnswer', () => {
  it('names a refusal no dialect knows: status, JSON-RPC code and message, or the plain text', () => {
    expect(of(http(400, rpc(-32000, 'Bad Request: Session expired')))).toEqual({ status: 400, code: -32000, message: 'Bad Request: Session expired' });
    expect(of(http(410, '  gone for good\n'))).toEqual({ status: 410, text: 'gone for good' });
    expect(of(http(409, ''))).toEqual({ status: 409 });
  });

  it('redacts the session id wherever the server repeated it, and cuts long text', () => {
    const id = 'a3f9c2e1-0000-4000-8000-1234567890ab';
    expect(of(http(400, rpc(-32011, `Unknown session ${id}`)), id)).toEqual({ status: 400, code: -32011, message: `Unknown session ${redactSessionId(id)}` });
    expect(of(http(400, 'x'.repeat(5_000)))!.text).toHaveLength(UNRECOGNISED_TEXT_LIMIT);
  });

  it('is nothing for what a dialect knows, a request without a session id, a revision without sessions, or a status with a cause of its own', () => {
    expect(of(http(404, rpc(-32001, 'Session not found')))).toBeUndefined(); // a dialect: a session loss
    expect(of(http(400, rpc(-32000, 'x'), { sessionIdSent: false }))).toBeUndefined();
    expect(of(http(400, rpc(-32000, 'x'), { revision: '2026-07-28' }))).toBeUndefined();
    expect(of(http(400, rpc(-32000, 'x'), { revision: '2024-11-05' }))).toBeUndefined();
    for (const status of [401, 403, 405, 406, 413, 415, 429]) expect(of(http(status, rpc(-32000, 'x')))).toBeUndefined();
    expect(of(http(500, rpc(-32603, 'boom')))).toBeUndefined();
    expect(of({ kind: 'stream-ended', sessionIdSent: true, revision: '2025-11-25' })).toBeUndefined();
  });
});
