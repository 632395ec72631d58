import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareReports } from './compare-reports.ts';
import { parseScenarioFile } from './parse-corpus.ts';
import { parseScenario } from './parse-scenario.ts';
import { corpusReport } from './report.ts';
import { runCorpus } from './run-corpus.ts';
import { runScenario } from './run-scenario.ts';
import type { ScenarioReport } from './report.ts';
import { chaosProcessForTests, hostFor } from './test-support/host.ts';

const chaos = chaosProcessForTests();
const corpusFile = (name: string) => ({ file: `${name}.json`, text: readFileSync(new URL(`../../../conformance/scenarios/${name}.json`, import.meta.url), 'utf8') });
const evict = parseScenarioFile(corpusFile('evict-typescript-sdk'));
const json = JSON.parse(corpusFile('evict-typescript-sdk').text) as Record<string, unknown> & { steps: unknown[] };
const minimal = { name: 'minimal', description: 'one call', steps: [{ call: { tool: 'echo', arguments: { text: 'hi' } }, expect: 'ok' }], expect: { trace: [] } };
const poolIsEmpty = async () => expect(((await (await fetch(`${chaos().control}/servers`)).json()) as { servers: unknown[] }).servers).toEqual([]);

describe('runScenario, against an mcp-chaos process', () => {
  it('runs a corpus scenario to its expected trace and wire, and stops its server', async () => {
    const report = await runScenario(evict, hostFor(chaos().control));
    expect(report).toEqual({ name: 'evict-typescript-sdk', ok: true, trace: evict.expect.trace, wire: { posts: evict.expect.posts }, mismatches: [] });
    await poolIsEmpty();
  });

  it('reports a wrong expected trace as a mismatch, with the trace it saw', async () => {
    const wrong = { ...evict, expect: { trace: evict.expect.trace.filter((e) => e.type !== 'replayed') } };
    const report = await runScenario(wrong, hostFor(chaos().control));
    expect(report.ok).toBe(false);
    expect(report.trace).toEqual(evict.expect.trace);
    expect(report.mismatches).toEqual([expect.stringMatching(/^trace: expected .* got .*"replayed"/)]);
  });

  it('reports a call that does not come out as expected, naming the step', async () => {
    const scenario = parseScenario({ ...minimal, steps: [{ call: { tool: 'echo', arguments: { text: 'hi' } }, expect: { error: 'SESSION_LOST' } }] });
    const report = await runScenario(scenario, hostFor(chaos().control));
    expect(report.mismatches).toEqual(['steps[0] (call): expected {"error":"SESSION_LOST"}, got ok "hi"']);
  });

  it('reports wire, ledger and session expectations that do not hold, with what the server saw', async () => {
    const scenario = parseScenario({ ...minimal, expect: { trace: [], posts: ['tools/call 200 s1'], ledger: { k: 1 }, sessions: [] } });
    const report = await runScenario(scenario, hostFor(chaos().control));
    expect(report.mismatches.map((m) => m.split(':')[0])).toEqual(['posts', 'ledger', 'sessions']);
    expect(report.wire).toEqual({
      posts: ['initialize 200', 'notifications/initialized 202 s1', 'tools/call 200 s1'], ledger: {}, sessions: [{ ordinal: 1, subscriptions: [] }],
    });
  });

  it('runs a taskCall step: the steps during it while its task runs; a call that went plain is a mismatch', async () => {
    const during = [{ faults: [{ kind: 'status', status: 429, count: 1, retryAfter: '0', rpcMethod: 'tasks/get' }] }];
    const task = { taskCall: { tool: 'job', arguments: { key: 'k', ms: 300, pollMs: 100 } }, during, expect: { text: 'executions of k: 1' } };
    const backedOff = { type: 'backed-off', method: 'tasks/get', verdict: 'rate-limited', status: 429, attempt: 1 };
    const ran = await runScenario(parseScenario({ ...minimal, steps: [task], expect: { trace: [backedOff] } }), hostFor(chaos().control));
    expect(ran).toMatchObject({ ok: true, mismatches: [] });
    const plain = parseScenario({ ...minimal, steps: [{ taskCall: { tool: 'echo', arguments: { text: 'hi' } }, expect: 'ok' }] });
    expect((await runScenario(plain, hostFor(chaos().control))).mismatches).toEqual(['steps[0] (task-call): expected a task, got a plain call (ok "hi")']);
  });

  it('a scenario that cannot run is a failed report, not a throw', async () => {
    const report = await runScenario(evict, hostFor('http://127.0.0.1:9/_chaos'));
    expect(report).toMatchObject({ name: 'evict-typescript-sdk', ok: false, trace: [] });
    expect(report.mismatches).toEqual([expect.stringMatching(/^the scenario could not run: chaos control POST http:\/\/<chaos>\/_chaos\/servers: unreachable/)]);
  });
});

describe('declared differences, run for real', () => {
  // As if Deno could not replay: its file declares that the call after the eviction fails, and why.
  const declared = parseScenario({
    ...json,
    client: { ...(json.client as object), replay: 'never' },
    steps: json.steps.slice(0, 3),
    expect: { trace: [] },
    differences: [{
      runtimes: ['deno'], what: 'the eviction is met by a node-only replay policy', why: 'a test of the runner: the same file, another expectation on deno',
      expect: { trace: evict.expect.trace, posts: (evict.expect.posts ?? []).slice(0, 7) }, steps: { 2: { text: 'after' } },
    }],
  }, 'evict-typescript-sdk.json');

  it('apply on the runtime they name, say so in its report, and compare as declared', async () => {
    const onDeno = await runScenario({ ...declared, expect: { trace: evict.expect.trace } }, hostFor(chaos().control, 'deno'));
    expect(onDeno).toMatchObject({ ok: true, difference: { what: 'the eviction is met by a node-only replay policy' }, trace: evict.expect.trace });
    expect(onDeno.wire).toEqual({ posts: (evict.expect.posts ?? []).slice(0, 7) });
    const onNode = await runScenario(evict, hostFor(chaos().control, 'node'));
    expect(onNode.difference).toBeUndefined();
    const comparison = compareReports(corpusReport('node', [onNode]), corpusReport('deno', [onDeno]));
    expect(comparison).toMatchObject({ same: true, declared: [{ name: 'evict-typescript-sdk', runtimes: ['deno'] }] });
  });

  it('do not apply elsewhere: the same file on node is held to its own expectations', async () => {
    const onNode = await runScenario(declared, hostFor(chaos().control, 'node'));
    expect(onNode.difference).toBeUndefined();
    expect(onNode.ok).toBe(false);
    expect(onNode.mismatches).toEqual([expect.stringMatching(/^trace: expected \[\], got \[.*"session-lost"/)]);
  });

  it('an undeclared difference fails the comparison, even when each side met its own file', async () => {
    // "deno" ran a file whose eviction step is gone: another trace, and nothing declares it.
    const quiet = parseScenario({ ...json, steps: [json.steps[0], json.steps[2]], expect: { trace: [] } }, 'evict-typescript-sdk.json');
    const reports: ScenarioReport[] = [await runScenario(evict, hostFor(chaos().control, 'node')), await runScenario(quiet, hostFor(chaos().control, 'deno'))];
    expect(reports.map((r) => r.ok)).toEqual([true, true]);
    const comparison = compareReports(corpusReport('node', [reports[0]!]), corpusReport('deno', [reports[1]!]));
    expect(comparison.same).toBe(false);
    expect(comparison.undeclared).toEqual([{ name: 'evict-typescript-sdk', detail: expect.stringMatching(/^differs and no difference is declared: trace: node \[.*\], deno \[\]/) }]);
  });
});

describe('runCorpus', () => {
  it('runs every file in order, counts an unmappable one as failed, and tells each as it ends', async () => {
    const told: string[] = [];
    const report = await runCorpus(
      [corpusFile('state-restored'), { file: 'zz-broken.json', text: '{ "name": ' }, corpusFile('forbidden-403-passthrough')],
      hostFor(chaos().control), { onScenario: (r) => told.push(`${r.name} ${r.ok}`) },
    );
    expect(told).toEqual(['forbidden-403-passthrough true', 'state-restored true', 'zz-broken.json false']);
    expect(report).toMatchObject({ runtime: 'node', passed: 2, failed: 1 });
    expect(report.scenarios.map((s) => s.name)).toEqual(['forbidden-403-passthrough', 'state-restored', 'zz-broken.json']);
    expect(report.scenarios[1]!.wire).toEqual({ sessions: [{ ordinal: 2, subscriptions: ['chaos://counter'], logLevel: 'debug' }] });
    expect(report.scenarios[2]!.mismatches).toEqual([expect.stringMatching(/^zz-broken\.json: not JSON/)]);
    await poolIsEmpty();
  });
});
