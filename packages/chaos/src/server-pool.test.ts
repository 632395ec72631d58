import { afterEach, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer, type ChaosState } from './chaos-server.ts';
import { MAX_POOL_SERVERS } from './server-pool.ts';
import { callTool, openSession, resultText } from './test-support/raw-client.ts';

let root: ChaosServer | undefined;
afterEach(async () => {
  await root?.stop();
  root = undefined;
});

async function control(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function createServer(options: unknown): Promise<{ url: string; control: string }> {
  const { status, body } = await control(`${root!.control}/servers`, 'POST', options);
  expect(status, JSON.stringify(body)).toBe(201);
  return body as { url: string; control: string };
}

const stateAt = async (controlUrl: string) => (await control(`${controlUrl}/state`)).body as unknown as ChaosState;

describe('POST {control}/servers: a fresh chaos server per request', () => {
  it('starts a server of its own with the options asked for, on another port, and lists it', async () => {
    root = await startChaosServer();
    const server = await createServer({ dialect: 'amdahl', faults: [{ kind: 'capacity', max: 3 }], taskBinding: 'server' });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.control).toBe(server.url.replace('/mcp', '/_chaos'));
    expect(new URL(server.url).port).not.toBe(new URL(root.url).port);
    const session = await openSession(server.url);
    expect(resultText(await callTool(server.url, session, 'echo', { text: 'pooled' }))).toBe('pooled');
    const state = await stateAt(server.control);
    expect(state.faults).toMatchObject({ dialect: 'amdahl', capacity: 3 });
    expect(state.taskBinding).toBe('server');
    expect(state.sessions).toHaveLength(1);
    expect((await stateAt(root.control)).sessions).toEqual([]);
    expect((await control(`${root.control}/servers`)).body).toEqual({ servers: [server] });
  });

  it('leaks nothing from one server to the next: sessions, ledger, log, faults and uptime start afresh', async () => {
    root = await startChaosServer();
    const first = await createServer({ dialect: 'python-sdk' });
    const session = await openSession(first.url);
    await callTool(first.url, session, 'record', { key: 'k' });
    await control(`${first.control}/faults`, 'POST', [{ kind: 'status', status: 503, count: 5 }, { kind: 'idle-budget', ms: 900 }]);
    expect((await control(first.control, 'DELETE')).body).toEqual({ stopped: true });
    const second = await createServer({});
    const state = await stateAt(second.control);
    expect(state).toMatchObject({ sessions: [], ledger: {}, log: [], history: [], uptimeSeconds: 0 });
    expect(state.faults).toMatchObject({ dialect: 'typescript-sdk', idleBudgetMs: null, pendingStatus: [] });
    await openSession(second.url);
    expect((await stateAt(second.control)).sessions.map((s) => s.ordinal)).toEqual([1]);
  });

  it('DELETE on its control URL stops it: its port refuses connections, the pool forgets it', async () => {
    root = await startChaosServer();
    const server = await createServer({});
    expect((await control(server.control, 'DELETE')).status).toBe(200);
    await expect(fetch(`${server.control}/state`)).rejects.toThrow();
    expect((await control(`${root.control}/servers`)).body).toEqual({ servers: [] });
  });

  it('stops every server of the pool with the pool', async () => {
    root = await startChaosServer();
    const servers = [await createServer({}), await createServer({ mode: 'modern' })];
    await root.stop();
    root = undefined;
    for (const server of servers) await expect(fetch(`${server.control}/state`)).rejects.toThrow();
  });

  it('refuses options it cannot map, or that only the command line sets, and a server that is not a pool member cannot be DELETEd', async () => {
    root = await startChaosServer();
    for (const options of [{ dialect: 'cobol' }, { faults: [{ kind: 'melt' }] }, { upstream: 'http://127.0.0.1:9/mcp' },
      { port: 8080 }, { controlOrigins: ['http://evil.example'] }, { colour: 'red' }, [], { jsonResponses: 'yes' }, { taskBinding: 'forever' }]) {
      const { status, body } = await control(`${root.control}/servers`, 'POST', options);
      expect(status, JSON.stringify(options)).toBe(400);
      expect(body.error).toEqual(expect.any(String));
    }
    expect((await control(root.control, 'DELETE')).status).toBe(405);
    const member = await createServer({});
    expect((await control(`${member.control}/servers`, 'POST', {})).status).toBe(404);
  });

  it(`holds at most ${MAX_POOL_SERVERS} servers: 503 beyond, room again after a DELETE`, async () => {
    root = await startChaosServer();
    const made = [];
    for (let i = 0; i < MAX_POOL_SERVERS; i++) made.push(await createServer({}));
    const full = await control(`${root.control}/servers`, 'POST', {});
    expect(full.status).toBe(503);
    await control(made[0]!.control, 'DELETE');
    await createServer({});
  });
});
