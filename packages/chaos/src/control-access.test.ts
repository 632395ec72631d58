import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { controlAllowed, parseControlOrigin } from './control-access.ts';
import { ChaosInputError } from './faults.ts';

const PAGE = 'http://127.0.0.1:5173';
let chaos: ChaosServer | undefined;
afterEach(async () => {
  await chaos?.stop();
  chaos = undefined;
});

/** A request with a Host of our choosing (fetch will not send one; a DNS-rebinding page's request would). */
function withHost(url: string, host: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host, origin } }, (res) => (res.resume(), resolve(res.statusCode!))).on('error', reject).end();
  });
}

describe('--control-origin: exactly those origins may drive the control API from a page', () => {
  it('answers a listed origin with CORS for it, preflight included', async () => {
    chaos = await startChaosServer({ controlOrigins: [PAGE] });
    const preflight = await fetch(`${chaos.control}/servers`, {
      method: 'OPTIONS', headers: { origin: PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    const applied = await fetch(`${chaos.control}/faults`, {
      method: 'POST', headers: { origin: PAGE, 'content-type': 'application/json' }, body: '{"kind":"dialect","name":"amdahl"}',
    });
    expect(applied.status).toBe(200);
    expect(applied.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(applied.headers.get('vary')).toContain('origin');
    expect(chaos.state().faults.dialect).toBe('amdahl');
  });

  it('refuses every other origin, a loopback one included, and applies nothing', async () => {
    chaos = await startChaosServer({ controlOrigins: [PAGE] });
    for (const origin of ['https://evil.example', 'http://127.0.0.1:5174', 'http://localhost:5173', 'null']) {
      const reply = await fetch(`${chaos.control}/faults`, { method: 'POST', headers: { origin }, body: '{"kind":"restart"}' });
      expect(reply.status, origin).toBe(403);
      expect(reply.headers.get('access-control-allow-origin')).toBeNull();
      expect((await fetch(`${chaos.control}/state`, { method: 'OPTIONS', headers: { origin } })).status).toBe(403);
    }
    expect(chaos.state().history).toEqual([]);
  });

  it('without the option, a page of any origin is refused, as a program without an Origin is served', async () => {
    chaos = await startChaosServer();
    expect((await fetch(`${chaos.control}/state`, { headers: { origin: 'http://127.0.0.1:5173' } })).status).toBe(403);
    const own = await fetch(`${chaos.control}/state`);
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('still refuses a foreign Host from a listed origin (DNS rebinding)', async () => {
    chaos = await startChaosServer({ controlOrigins: [PAGE] });
    expect(await withHost(`${chaos.control}/state`, 'rebound.example', PAGE)).toBe(403);
    expect(await withHost(`${chaos.control}/state`, new URL(chaos.control).host, PAGE)).toBe(200);
  });

  it('carries over to the servers of its pool', async () => {
    chaos = await startChaosServer({ controlOrigins: [PAGE] });
    const created = await fetch(`${chaos.control}/servers`, { method: 'POST', headers: { origin: PAGE, 'content-type': 'application/json' }, body: '{}' });
    expect(created.status).toBe(201);
    const { control } = (await created.json()) as { control: string };
    expect((await fetch(`${control}/state`, { headers: { origin: PAGE } })).headers.get('access-control-allow-origin')).toBe(PAGE);
    expect((await fetch(`${control}/state`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(control, { method: 'DELETE', headers: { origin: PAGE } })).status).toBe(200);
  });
});

describe('parseControlOrigin', () => {
  it('takes an origin exactly, and nothing that would widen it', () => {
    expect(parseControlOrigin('http://127.0.0.1:5173')).toBe('http://127.0.0.1:5173');
    expect(parseControlOrigin('http://localhost:5173/')).toBe('http://localhost:5173');
    for (const bad of ['*', 'null', '127.0.0.1:5173', 'http://127.0.0.1:5173/app', 'file:///tmp/page.html', '']) {
      expect(() => parseControlOrigin(bad), bad).toThrow(ChaosInputError);
    }
  });

  it('refuses a bad origin when the server starts', async () => {
    await expect(startChaosServer({ controlOrigins: ['*'] })).rejects.toThrow(ChaosInputError);
  });
});

describe('controlAllowed', () => {
  const loopback = { origins: new Set([PAGE]), loopbackBound: true };
  it('a program (no Origin) on a loopback Host, or a listed origin; nothing else', () => {
    expect(controlAllowed({ host: '127.0.0.1:4000' }, loopback)).toBe(true);
    expect(controlAllowed({ host: '127.0.0.1:4000', origin: PAGE }, loopback)).toBe(true);
    expect(controlAllowed({ host: '127.0.0.1:4000', origin: 'http://127.0.0.1:1' }, loopback)).toBe(false);
    expect(controlAllowed({ host: 'evil.example', origin: PAGE }, loopback)).toBe(false);
    expect(controlAllowed({ host: 'chaos.internal:4000' }, { origins: new Set(), loopbackBound: false })).toBe(true);
  });
});
