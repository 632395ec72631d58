import { afterEach, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { ProtectedResource } from './protected-resource.ts';

let chaos: ChaosServer | undefined;
afterEach(async () => chaos?.stop());

const form = (fields: Record<string, string>) => ({
  method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields),
});
const initialize = (url: string, token: string | undefined, session?: string) => fetch(url, {
  method: 'POST',
  headers: {
    'content-type': 'application/json', accept: 'application/json, text/event-stream',
    ...(token ? { authorization: `Bearer ${token}` } : {}), ...(session ? { 'mcp-session-id': session } : {}),
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: session ? 'tools/list' : 'initialize', params: session ? {} : { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
});

describe('the chaos server as a protected resource', () => {
  it('serves its metadata, grants client_credentials and refresh_token to its client only, and refuses what it did not issue', async () => {
    const auth = new ProtectedResource('auth-first');
    chaos = await startChaosServer({ auth });
    const origin = new URL(chaos.url).origin;
    expect(await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()).toEqual({
      resource: chaos.url, authorization_servers: [origin], bearer_methods_supported: ['header'],
    });
    const metadata = await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json() as { token_endpoint: string };
    expect(metadata.token_endpoint).toBe(`${origin}/token`);
    const client = { client_id: auth.clientId, client_secret: auth.clientSecret };
    const granted = await (await fetch(metadata.token_endpoint, form({ grant_type: 'client_credentials', ...client }))).json() as { access_token: string; refresh_token: string };
    expect(granted).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^churn-at-/), refresh_token: expect.stringMatching(/^churn-rt-/) });
    expect(auth.tagOf(`Bearer ${granted.access_token}`)).toBe('t1');
    expect((await fetch(metadata.token_endpoint, form({ grant_type: 'client_credentials', client_id: auth.clientId, client_secret: 'wrong' }))).status).toBe(401);
    expect(await (await fetch(metadata.token_endpoint, form({ grant_type: 'refresh_token', refresh_token: 'churn-rt-00', ...client }))).json()).toEqual({ error: 'invalid_grant' });
    // Not rotated: the same refresh token works twice.
    for (const tag of ['t2', 't3']) {
      const refreshed = await (await fetch(metadata.token_endpoint, form({ grant_type: 'refresh_token', refresh_token: granted.refresh_token, ...client }))).json() as { access_token: string; refresh_token: string };
      expect([auth.tagOf(`Bearer ${refreshed.access_token}`), refreshed.refresh_token]).toEqual([tag, granted.refresh_token]);
    }
    const refused = await initialize(chaos.url, 'churn-at-0000');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", error_description="Invalid token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    expect((await initialize(chaos.url, undefined)).status).toBe(401);
    expect((await initialize(chaos.url, granted.access_token)).status).toBe(200);
  });

  it.each([['auth-first', 401], ['session-first', 404]] as const)('%s: a dead session with an expired token is answered %i', async (order, status) => {
    const auth = new ProtectedResource(order);
    chaos = await startChaosServer({ auth });
    const { accessToken } = auth.issue();
    const opened = await initialize(chaos.url, accessToken);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    auth.expireAccessTokens();
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    expect((await initialize(chaos.url, accessToken, session)).status).toBe(status);
    const fresh = auth.issue().accessToken;
    expect((await initialize(chaos.url, fresh, session)).status).toBe(404); // the token is good now: the session is not
    expect((await initialize(chaos.url, accessToken)).status).toBe(401); // a new session needs the new token
  });
});
