import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from './chaos-clock.ts';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { LIVE_FULL_CLOSE_CODE, LIVE_LIMITS } from './live-hub.ts';
import { LIVE_SCHEMA_VERSION, LIVE_STOPPED_CLOSE_CODE } from './live-view/live-schema.ts';
import { connectViewer, liveUrl, type Viewer } from './test-support/live-viewer.ts';
import { call, callTool, inject, openSession, REVISION } from './test-support/raw-client.ts';

const PAGE = 'http://127.0.0.1:5173';
let chaos: ChaosServer | undefined;
const viewers: Viewer[] = [];
afterEach(async () => {
  await Promise.all(viewers.splice(0).map((v) => v.close()));
  await chaos?.stop();
  chaos = undefined;
});

async function viewer(control: string, headers: Record<string, string> = {}): Promise<Viewer> {
  const connected = await connectViewer(control, headers);
  viewers.push(connected);
  return connected;
}

/** The upgrade's HTTP status, with a Host and Origin of our choosing (a page's, a rebinding one's). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers } });
    req.on('upgrade', (res, socket) => (socket.destroy(), resolve(res.statusCode!)));
    req.on('response', (res) => (res.resume(), resolve(res.statusCode!)));
    req.on('error', reject);
    req.end();
  });
}

describe('{control}/live: what happens, as it happens', () => {
  it('starts with hello (schema version, mode, faults in force) and tells sessions, requests with their outcome, faults and ends by ordinal', async () => {
    chaos = await startChaosServer({ dialect: 'amdahl' });
    const live = await viewer(chaos.control);
    expect(live.hello()).toMatchObject({ type: 'hello', version: LIVE_SCHEMA_VERSION, mode: 'legacy', sessions: [], faults: { dialect: 'amdahl' } });

    const id = await openSession(chaos.url);
    const opened = await live.next('session-opened');
    expect(opened.session).toBe(1);
    const init = await live.next('request', (m) => m.rpcMethod === 'initialize');
    expect(init).not.toHaveProperty('session');
    expect(await live.next('response', (m) => m.seq === init.seq)).toMatchObject({ status: 200, outcome: 'ok', opened: 1 });
    await callTool(chaos.url, id, 'echo', { text: 'hi' });
    const echo = await live.next('request', (m) => m.rpcMethod === 'tools/call');
    expect(echo).toMatchObject({ httpMethod: 'POST', session: 1 });
    expect(await live.next('response', (m) => m.seq === echo.seq)).toMatchObject({ status: 200, outcome: 'ok' });

    await inject(chaos, { kind: 'evict', session: 'all' });
    expect(await live.next('fault')).toMatchObject({ fault: { kind: 'evict', session: 'all' } });
    expect(await live.next('session-ended')).toMatchObject({ session: 1, reason: 'evicted' });
    await callTool(chaos.url, id, 'echo', { text: 'gone' });
    const gone = await live.next('request', (m) => m.seq > echo.seq && m.rpcMethod === 'tools/call');
    expect(gone.session).toBe(1); // an ended session is still named by its ordinal
    expect(await live.next('response', (m) => m.seq === gone.seq)).toMatchObject({ status: 404, outcome: 'session-gone', fault: 'session-gone amdahl' });

    await inject(chaos, { kind: 'status', status: 429, count: 1, retryAfter: '1' });
    const second = await openSession(chaos.url).catch(() => openSession(chaos!.url)); // the 429 may hit the initialize
    const limited = await live.next('response', (m) => m.status === 429);
    expect(limited).toMatchObject({ outcome: 'slow-down', fault: 'status 429' });
    await inject(chaos, { kind: 'status', status: 503, afterRun: true, rpcMethod: 'tools/call' });
    await callTool(chaos.url, second, 'record', { key: 'ran' });
    // it ran, then a gateway's 503 took its answer: no request to slow down, an error after the fact
    expect(await live.next('response', (m) => m.status === 503)).toMatchObject({ outcome: 'server-error', fault: 'status 503 after run' });
    await call(chaos.url, 'never-issued', 'tools/list');
    expect(await live.next('request', (m) => m.unknownSession === true)).not.toHaveProperty('session');

    // Session ids never travel: not in one message, not even redacted.
    for (const text of live.texts) for (const raw of [id, second]) expect(text).not.toContain(raw);
    expect(live.texts.join('\n')).not.toMatch(/sid-[0-9a-f]{8}/);
  });

  it('says why each session ended: restart, DELETE, capacity, idle (dated when it crossed the budget)', async () => {
    const clock = manualClock();
    chaos = await startChaosServer({ clock });
    const live = await viewer(chaos.control);
    await openSession(chaos.url);
    await inject(chaos, { kind: 'restart' });
    expect(await live.next('session-ended')).toMatchObject({ session: 1, reason: 'restart' });

    const deleted = await openSession(chaos.url);
    await fetch(chaos.url, { method: 'DELETE', headers: { 'mcp-session-id': deleted, 'mcp-protocol-version': REVISION } });
    expect(await live.next('session-ended', (m) => m.session === 2)).toMatchObject({ reason: 'deleted' });

    await inject(chaos, { kind: 'capacity', max: 1 });
    await openSession(chaos.url);
    await openSession(chaos.url);
    expect(await live.next('session-ended', (m) => m.session === 3)).toMatchObject({ reason: 'capacity' });

    await inject(chaos, [{ kind: 'capacity', max: null }, { kind: 'idle-budget', ms: 200 }]);
    const lastUse = await live.next('request', (m) => m.session === 4); // its notifications/initialized
    const lastUseEnded = (await live.next('response', (m) => m.seq === lastUse.seq)).atMs;
    await clock.advance(400);
    chaos.state(); // the server notices an idle expiry when it next looks: a request, or a state read
    const idle = await live.next('session-ended', (m) => m.session === 4);
    expect(idle.reason).toBe('idle');
    // Dated when it crossed the budget (200 ms after its last use), not when it was noticed (400 ms or more after).
    expect(idle.atMs - lastUseEnded).toBeGreaterThanOrEqual(200);
    expect(idle.atMs - lastUseEnded).toBeLessThan(300);
  });

  it('gives a late viewer the sessions alive and the recent past; reset and refusals are told too', async () => {
    const clock = manualClock();
    chaos = await startChaosServer({ clock });
    const first = await openSession(chaos.url);
    await callTool(chaos.url, first, 'echo', { text: 'before' });
    await inject(chaos, { kind: 'dialect', name: 'go-sdk' });
    const late = await viewer(chaos.control);
    const hello = late.hello();
    expect(hello.sessions).toEqual([{ session: 1, openedAtMs: expect.any(Number) }]);
    expect(hello.faults.dialect).toBe('go-sdk');
    expect(hello.backlog.map((m) => m.type)).toEqual(expect.arrayContaining(['session-opened', 'request', 'response', 'fault']));
    expect(hello.backlog.every((m) => m.atMs <= hello.atMs)).toBe(true);

    await fetch(`${chaos.control}/reset`, { method: 'POST' });
    expect((await late.next('reset')).faults.dialect).toBe('typescript-sdk');
    // A viewer watches a refusal through: its connection stays while new ones are refused.
    await inject(chaos, { kind: 'refuse', ms: 300 });
    expect(await late.next('fault', (m) => m.fault.kind === 'refuse')).toMatchObject({ untilMs: expect.any(Number) });
    await expect(fetch(`${chaos.control}/state`)).rejects.toThrow();
    await clock.advance(300);
    await openSession(chaos.url);
    expect((await late.next('session-opened', (m) => m.session === 2)).session).toBe(2);
  });

  it('a pool server has a live feed of its own; a server that stops says so to its viewers, then closes', async () => {
    chaos = await startChaosServer();
    const root = await viewer(chaos.control);
    const created = await (await fetch(`${chaos.control}/servers`, { method: 'POST', body: '{"dialect":"python-sdk"}' })).json() as { url: string; control: string };
    const pooled = await viewer(created.control);
    expect(pooled.hello().faults.dialect).toBe('python-sdk');
    await openSession(created.url);
    expect((await pooled.next('session-opened')).session).toBe(1);
    // A fault on the root comes to its viewer after anything the root said before it.
    await inject(chaos, { kind: 'dialect', name: 'go-sdk' });
    await root.next('fault');
    expect(root.messages.filter((m) => m.type === 'session-opened')).toEqual([]);
    await fetch(created.control, { method: 'DELETE' });
    // Stopped in order with its server: told so last, then closed with 1001, not cut.
    expect(await pooled.closed).toEqual({ code: LIVE_STOPPED_CLOSE_CODE, reason: 'the server stopped' });
    expect(pooled.messages.at(-1)).toEqual({ type: 'stopped', atMs: expect.any(Number) });
    expect(root.socket.readyState).toBe(root.socket.OPEN);
    await chaos.stop();
    chaos = undefined;
    expect((await root.closed).code).toBe(LIVE_STOPPED_CLOSE_CODE);
    expect(root.messages.at(-1)?.type).toBe('stopped');
  });
});

describe('{control}/live: who may watch', () => {
  it('refuses a foreign Origin and a foreign Host, takes a program, a --control-origin page and its own page', async () => {
    chaos = await startChaosServer({ controlOrigins: [PAGE] });
    const url = liveUrl(chaos.control).replace(/^ws/, 'http');
    const own = new URL(chaos.control);
    expect(await upgradeStatus(url, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus(url, { origin: 'http://127.0.0.1:1' })).toBe(403);
    expect(await upgradeStatus(url, { origin: PAGE, host: 'rebound.example' })).toBe(403);
    expect(await upgradeStatus(url, { origin: `http://rebound.example:${own.port}`, host: `rebound.example:${own.port}` })).toBe(403);
    expect(await upgradeStatus(url.replace('/live', '/state'), {})).toBe(404);
    expect(await upgradeStatus(url, {})).toBe(101);
    expect(await upgradeStatus(url, { origin: PAGE })).toBe(101);
    expect(await upgradeStatus(url, { origin: own.origin })).toBe(101);
    await expect(connectViewer(chaos.control, { origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
  });

  it('serves its page under a strict CSP, to its own origin and the listed ones only', async () => {
    chaos = await startChaosServer({ controlOrigins: [PAGE] });
    const page = await fetch(`${chaos.control}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="view/live-view.js"></script>');
    const csp = page.headers.get('content-security-policy')!;
    for (const rule of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", `frame-ancestors 'self' ${PAGE}`]) expect(csp).toContain(rule);
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    const script = await fetch(`${chaos.control}/view/live-view.js`, { headers: { origin: new URL(chaos.control).origin } });
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(await script.text()).toContain("new URL('live', location.href)");
    expect((await fetch(chaos.control, { redirect: 'manual' })).headers.get('location')).toBe('/_chaos/');
    expect((await fetch(`${chaos.control}/`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(`${chaos.control}/view/nothing.js`)).status).toBe(404);
  });

  it(`takes ${LIVE_LIMITS.maxClients} viewers; one more is closed with ${LIVE_FULL_CLOSE_CODE} until one leaves`, async () => {
    chaos = await startChaosServer();
    const full = await Promise.all(Array.from({ length: LIVE_LIMITS.maxClients }, () => viewer(chaos!.control)));
    expect(full.every((v) => v.hello().type === 'hello')).toBe(true);
    const over = await viewer(chaos.control);
    expect(await over.closed).toEqual({ code: LIVE_FULL_CLOSE_CODE, reason: `at most ${LIVE_LIMITS.maxClients} live viewers` });
    expect(over.messages).toEqual([]);
    await full[0]!.close();
    // The server learns of the leave when its socket closes: until then a newcomer may still be turned away.
    let admitted: Viewer | undefined;
    for (let attempt = 0; attempt < 50 && !admitted?.hello(); attempt++) admitted = await viewer(chaos.control);
    expect(admitted!.hello().type).toBe('hello');
  });
});
