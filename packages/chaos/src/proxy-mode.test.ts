import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { call, callTool, inject, openSession, post, resultText, stateOf } from './test-support/raw-client.ts';
import { startServerEverything, type ServerEverything } from './server-everything.ts';

let upstream: ServerEverything;
let chaos: ChaosServer;

beforeAll(async () => {
  upstream = await startServerEverything();
  chaos = await startChaosServer({ upstream: upstream.url, dialect: 'express-400' });
});
afterAll(async () => {
  await chaos?.stop();
  await upstream?.stop();
});

describe('proxy mode, in front of @modelcontextprotocol/server-everything', () => {
  it('passes sessions and calls through, learning the session the upstream minted', async () => {
    const session = await openSession(chaos.url);
    expect(resultText(await callTool(chaos.url, session, 'echo', { message: 'through' }))).toContain('through');
    const state = await stateOf(chaos);
    expect(state.mode).toBe('proxy');
    expect(state.sessions.length).toBeGreaterThanOrEqual(1);
  });

  it('applies status faults in front of it', async () => {
    const session = await openSession(chaos.url);
    await inject(chaos, { kind: 'status', status: 429, retryAfter: '3' });
    const limited = await call(chaos.url, session, 'tools/list');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect((await call(chaos.url, session, 'tools/list')).status).toBe(200);
  });

  it('evicts a session in front and upstream, where the real server speaks its 400 dialect', async () => {
    const session = await openSession(chaos.url);
    await inject(chaos, { kind: 'evict', session: 'newest' });
    const front = await callTool(chaos.url, session, 'echo', { message: 'x' });
    expect(front.status).toBe(400);
    expect(JSON.parse(front.text)).toMatchObject({ error: { code: -32000, message: 'Bad Request: No valid session ID provided' } });
    // The eviction ended the session upstream too: server-everything itself now says so, its own way.
    const direct = await post(upstream.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    expect(direct.status).toBe(400);
    expect(JSON.parse(direct.text)).toMatchObject({ error: { code: -32000, message: 'Bad Request: No valid session ID provided' } });
  });
});
