import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './catalogue.ts';
import { scoreChecks } from './checks.ts';
import { runScenario } from './run-scenario.ts';

const RAW_CLIENT = `node ${fileURLToPath(new URL('../test-support/churn-clients/raw-client.mjs', import.meta.url))}`;
const CHEAT_CLIENT = fileURLToPath(new URL('../test-support/churn-clients/cheat-client.mjs', import.meta.url));
const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;
/** `node -e SCRIPT`: the URL lands in process.argv[1]. */
const inline = (script: string) => `node -e ${JSON.stringify(script)}`;

describe('runScenario', () => {
  it('runs the client against its own chaos server, applies the fault as the call arrives, and records the wire', async () => {
    const evidence = await runScenario(scenario('gone-amdahl'), { client: RAW_CLIENT });
    expect(evidence.problem).toBeUndefined();
    expect(evidence.outcomes.map((o) => [o.id, o.ok])).toEqual([['c1', true], ['c2', false], ['c3', false]]);
    const calls = evidence.wire.filter((r) => r.rpcMethod === 'tools/call').map((r) => [r.call, r.status]);
    expect(calls).toEqual([['echo {"text":"c1"}', 200], ['echo {"text":"c2"}', 404], ['echo {"text":"c3"}', 404]]);
    expect(evidence.wire.every((r) => r.session === undefined || /^sid-/.test(r.session))).toBe(true);
    // A JSON-RPC response written on a request is noted (c2's is the 404's error), and the start of each body kept for the reports.
    const [c1, c2] = evidence.wire.filter((r) => r.rpcMethod === 'tools/call');
    expect([c1?.answered, c2?.answered, evidence.wire[0]?.rpcMethod === 'initialize' && evidence.wire.find((r) => r.rpcMethod === 'notifications/initialized')?.answered])
      .toEqual([true, true, undefined]);
    expect(c2?.body).toMatch(/"code":-32000/);
    const failed = scoreChecks(scenario('gone-amdahl'), evidence).filter((c) => !c.passed).map((c) => c.name);
    expect(failed).toEqual(['reinitialized', 'dead-id-dropped', 'calls-answered']);
  });

  it('holds rate-limit-date\'s 429 until its HTTP-date lies 2 s ahead: a whole second, never more than 2 s after the answer', async () => {
    const evidence = await runScenario(scenario('rate-limit-date'), { client: `node ${CHEAT_CLIENT} correct` });
    const limited = evidence.wire.find((r) => r.status === 429)!;
    expect(Date.parse(limited.retryAfter!) % 1000).toBe(0);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(2000);
    expect(scoreChecks(scenario('rate-limit-date'), evidence).filter((c) => !c.passed)).toEqual([]);
  });

  it('gives the client the URL last and the scenario in MCP_CHURN_SCENARIO and MCP_CHURN_CONTEXT', async () => {
    const script = "const c = JSON.parse(process.env.MCP_CHURN_CONTEXT); console.log(JSON.stringify({ id: 'c1', ok: true, text: [process.env.MCP_CHURN_SCENARIO, c.callTimeoutMs, c.steps.length, process.argv.at(-1)].join(' ') }))";
    const evidence = await runScenario(scenario('stream-keepalive'), { client: inline(script), callTimeoutMs: 1234 });
    expect(evidence.outcomes[0]?.text).toMatch(/^stream-keepalive 1234 2 http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('fails a scenario whose client does not start, with the shell\'s reason', async () => {
    const evidence = await runScenario(scenario('restart'), { client: 'no-such-churn-client --flag' });
    expect(evidence.problem).toMatch(/^did not start \(exit code 127\): .*not found/);
  });

  it('kills a client that hangs at the cap, and fails the scenario instead of hanging', async () => {
    const started = performance.now();
    const evidence = await runScenario(scenario('restart'), { client: inline('setInterval(() => {}, 1000)'), capMs: 1500 });
    expect(evidence.problem).toBe('hung: still running after 1500 ms (killed)');
    // A hang guard, not a timing: the kill is proven by the problem above; ten times the cap means it hung.
    expect(performance.now() - started, 'hung: the scenario outlived ten times its cap').toBeLessThan(15_000);
  });

  it('fails a client that prints garbage, or a line that is no outcome of the scenario', async () => {
    expect((await runScenario(scenario('restart'), { client: inline("console.log('connected!')") })).problem)
      .toBe('printed a line that is not JSON: "connected!"');
    expect((await runScenario(scenario('restart'), { client: inline("console.log(JSON.stringify({ id: 'c9', ok: true }))") })).problem)
      .toMatch(/^printed a line that is no call's outcome/);
  });

  it('lets a client skip a 2026-07-28 scenario, and no other', async () => {
    const skip = inline("console.log(JSON.stringify({ skip: 'no 2026-07-28 here' }))");
    expect(await runScenario(scenario('stateless-2026'), { client: skip })).toMatchObject({ skipped: 'no 2026-07-28 here' });
    expect((await runScenario(scenario('restart'), { client: skip })).problem).toBe('skipped a scenario of revision 2025-11-25 (no 2026-07-28 here)');
  });
});
