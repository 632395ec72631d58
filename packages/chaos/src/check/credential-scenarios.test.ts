import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './catalogue.ts';
import { scoreChecks } from './checks.ts';
import { runScenario } from './run-scenario.ts';

// The two credential scenarios, run on a real client process each: a client that does it right
// passes every check, and each client built to break a scenario fails it, by the checks that say why.
const AUTH_CLIENT = fileURLToPath(new URL('../test-support/churn-clients/auth-client.mjs', import.meta.url));
const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;

async function score(name: string, mode: string) {
  const evidence = await runScenario(scenario(name), { client: `node ${AUTH_CLIENT} ${mode}` });
  const checks = scoreChecks(scenario(name), evidence);
  return { evidence, failed: checks.filter((c) => !c.passed).map((c) => c.name), checks };
}

const statuses = (wire: readonly { rpcMethod?: string; call?: string; status?: number; token?: string; session?: string }[]) =>
  wire.filter((r) => r.rpcMethod === 'initialize' || r.call !== undefined).map((r) => `${r.call?.split('"')[3] ?? 'init'} ${r.token} ${r.status}`);

describe('auth-first: the bearer check before the session lookup', () => {
  it('passes a client that refreshes on the 401, then re-initializes once on the 404', async () => {
    const { evidence, failed, checks } = await score('auth-first', 'correct');
    expect(evidence.problem).toBeUndefined();
    expect(failed, JSON.stringify(checks)).toEqual([]);
    // 401 with the expired token and the dead session; 404 with the refreshed one; a new session answers.
    expect(statuses(evidence.wire)).toEqual(['init t1 200', 'c1 t1 200', 'c2 t1 401', 'c2 t2 404', 'init t2 200', 'c2 t2 200', 'c3 t2 200']);
  });

  it('fails a client that never refreshes its token', async () => {
    const { failed } = await score('auth-first', 'no-refresh');
    // It never gets past the 401 to the dead session: the session checks have nothing to judge, and say so.
    expect(failed).toEqual(['token-refreshed', 'reinitialized', 'one-initialize', 'dead-id-dropped', 'calls-answered']);
  });

  it('fails a client that keeps the dead session id after the 404', async () => {
    const { failed } = await score('auth-first', 'keep-dead-id');
    // No initialize after the loss is no proof of one initialize.
    expect(failed).toEqual(['reinitialized', 'one-initialize', 'dead-id-dropped', 'calls-answered']);
  });
});

describe('session-first: the session lookup before the bearer check', () => {
  it('passes a client that re-initializes on the 404, refreshes on the initialize\'s 401, and initializes again', async () => {
    const { evidence, failed, checks } = await score('session-first', 'correct');
    expect(evidence.problem).toBeUndefined();
    expect(failed, JSON.stringify(checks)).toEqual([]);
    expect(statuses(evidence.wire)).toEqual(['init t1 200', 'c1 t1 200', 'c2 t1 404', 'init t1 401', 'init t2 200', 'c2 t2 200', 'c3 t2 200']);
  });

  it('fails a client that never refreshes its token (its new session is refused)', async () => {
    const { failed } = await score('session-first', 'no-refresh');
    // Its initialize is refused 401: no new session opened, so neither re-initialized nor one initialize is shown.
    expect(failed).toEqual(['token-refreshed', 'reinitialized', 'one-initialize', 'calls-answered']);
  });

  it('fails a client that keeps the dead session id (it never even meets the 401)', async () => {
    const { failed } = await score('session-first', 'keep-dead-id');
    expect(failed).toEqual(['token-refreshed', 'reinitialized', 'one-initialize', 'dead-id-dropped', 'calls-answered']);
  });
});

describe('a client that cannot authenticate', () => {
  it('may skip either scenario, saying why; the context it is given carries the token endpoint and the first token pair', async () => {
    for (const name of ['auth-first', 'session-first']) {
      const evidence = await runScenario(scenario(name), { client: `node ${AUTH_CLIENT} no-auth` });
      expect(evidence).toMatchObject({ skipped: 'this client cannot authenticate', outcomes: [] });
      expect(scoreChecks(scenario(name), evidence)).toEqual([]);
    }
    const script = 'const { auth } = JSON.parse(process.env.MCP_CHURN_CONTEXT); console.log(JSON.stringify({ skip: Object.keys(auth).join(" ") + " " + auth.tokenEndpoint }))';
    const evidence = await runScenario(scenario('auth-first'), { client: `node -e ${JSON.stringify(script)}` });
    expect(evidence.skipped).toMatch(/^tokenEndpoint clientId clientSecret accessToken refreshToken http:\/\/127\.0\.0\.1:\d+\/token$/);
  });
});

describe('the credentials in the reports', () => {
  it('never come out raw: a client that prints its token or secret has them redacted, even clipped', async () => {
    const script = ['const { auth } = JSON.parse(process.env.MCP_CHURN_CONTEXT)',
      "console.log(JSON.stringify({ id: 'c1', ok: false, error: 'Bearer ' + auth.accessToken + ' refresh ' + auth.refreshToken }))",
      "console.log(JSON.stringify({ id: 'c2', ok: true, text: auth.clientSecret }))",
      "console.error('Error: sent ' + 'x'.repeat(90) + auth.accessToken)", 'process.exit(1)'].join('; ');
    const evidence = await runScenario(scenario('session-first'), { client: `node -e ${JSON.stringify(script)}` });
    expect(evidence.outcomes.map((o) => o.error ?? o.text)).toEqual(['Bearer churn-at-[redacted] refresh churn-rt-[redacted]', 'churn-cs-[redacted]']);
    expect(evidence.problem).toMatch(/^exited with code 1: Error: sent x+churn-at-\[redacted\]…$/);
  });
});
