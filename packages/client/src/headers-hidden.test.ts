import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from './connect.ts';

let chaos: ChaosServer | undefined;
afterEach(async () => {
  await chaos?.stop();
  chaos = undefined;
});

/** What a browser does to a cross-origin answer whose server did not expose `Mcp-Session-Id`. */
const hidingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const headers = new Headers(response.headers);
  headers.delete('mcp-session-id');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
};

// The real proof is in Chromium (packages/browser); here, the hook: the runtime says headers were hidden.
describe('the headersHidden port', () => {
  it("goes on without the hidden session id until the server's 400 proves it wanted one: SESSION_ID_HIDDEN, naming the fix", async () => {
    chaos = await startChaosServer({ dialect: 'typescript-sdk' });
    const events: string[] = [];
    const error = await connect(chaos.url, { fetch: hidingFetch, headersHidden: () => true, onEvent: (e) => events.push(e.type) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SESSION_ID_HIDDEN', details: { status: 400, fix: 'Access-Control-Expose-Headers: Mcp-Session-Id' } });
    expect(events).toEqual(['session-started', 'gave-up']);
    // the proof: the server's own 400 to the request that went without the session id
    expect(chaos.state().log.map((e) => `${e.rpcMethod} ${e.status}`)).toEqual(['initialize 200', 'notifications/initialized 400']);
  });

  it('says nothing by default: a runtime that hides no headers meets a server without sessions', async () => {
    chaos = await startChaosServer({ dialect: 'typescript-sdk' });
    const error = await connect(chaos.url, { fetch: hidingFetch }).catch((e: unknown) => e);
    expect(error).not.toMatchObject({ code: 'SESSION_ID_HIDDEN' }); // the server's own 400 comes through
  });
});
