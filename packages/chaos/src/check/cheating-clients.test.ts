import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './catalogue.ts';
import { scoreChecks } from './checks.ts';
import { runCheck } from './run-check.ts';
import { runScenario } from './run-scenario.ts';

// Clients built to cheat or to slip, each a real process against a chaos server of its own: the
// checks pass a client only on what the wire shows, and fail each cheat by the check that says why.
const CLIENT = fileURLToPath(new URL('../test-support/churn-clients/cheat-client.mjs', import.meta.url));
const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;

async function failedChecks(name: string, mode: string, callTimeoutMs = 4000) {
  const evidence = await runScenario(scenario(name), { client: `node ${CLIENT} ${mode}`, callTimeoutMs });
  expect(evidence.problem).toBeUndefined();
  const checks = scoreChecks(scenario(name), evidence);
  return { failed: checks.filter((c) => !c.passed).map((c) => c.name), checks, evidence };
}

describe('a client that sends nothing and claims success', () => {
  it('scores no check and no scenario: an outcome line is no proof', async () => {
    const report = await runCheck({ client: `node ${CLIENT} nothing`, concurrency: 4 });
    const passed = report.scenarios.flatMap((s) => s.checks.filter((c) => c.passed).map((c) => `${s.name}: ${c.name}: ${c.detail}`));
    expect(passed).toEqual([]);
    expect(report.scenariosPassed).toBe(0);
    const restart = report.scenarios.find((s) => s.name === 'restart')!;
    expect(restart.checks.find((c) => c.name === 'reinitialized')?.detail).toMatch(/^did not run as written: no call of step 2 reached the server/);
    expect(restart.checks.find((c) => c.name === 'calls-answered')?.detail).toMatch(/^c1 was never sent \(yet printed an answer\)/);
  }, 120_000);
});

describe('dead-id-dropped counts from the moment the client read the loss', () => {
  it('passes the client that does it right on every session scenario it is run on', async () => {
    for (const name of ['gone-typescript-sdk', 'busy-eviction']) {
      const { failed, checks } = await failedChecks(name, 'correct');
      expect(failed, `${name}: ${JSON.stringify(checks)}`).toEqual([]);
    }
  }, 60_000);

  it('fails a client that pings on the dead id before re-initializing', async () => {
    const { failed, checks } = await failedChecks('gone-typescript-sdk', 'ping-dead-id');
    expect(failed).toEqual(['dead-id-dropped']);
    expect(checks.find((c) => c.name === 'dead-id-dropped')?.detail).toMatch(/\(POST ping\) carried a session id already answered 404/);
  }, 30_000);

  it('fails a client that sends the failed call twice on the dead id in busy-eviction', async () => {
    const { failed, checks } = await failedChecks('busy-eviction', 'twice-on-dead-id');
    expect(failed).toEqual(['dead-id-dropped']);
    expect(checks.find((c) => c.name === 'dead-id-dropped')?.detail).toMatch(/\(POST tools\/call\) carried a session id already answered 404/);
  }, 30_000);

  it('passes a client that DELETEs the old session after re-initializing (ending it is harmless)', async () => {
    const { failed, evidence } = await failedChecks('gone-typescript-sdk', 'delete-old');
    expect(evidence.wire.some((r) => r.httpMethod === 'DELETE')).toBe(true);
    expect(failed).toEqual([]);
  }, 30_000);
});

describe('outcomes stamped by the wire', () => {
  it('passes a client whose stdout is block-buffered and flushed at exit, after a close that lingers past the call timeout', async () => {
    for (const name of ['rate-limit-seconds', 'gone-amdahl']) {
      const { failed, checks, evidence } = await failedChecks(name, 'buffered');
      // Every line came after the call timeout: read by the line, each call would have hung.
      expect(Math.min(...evidence.outcomes.map((o) => o.atMs)) - evidence.wire[0]!.startMs).toBeGreaterThan(4000);
      expect(failed, `${name}: ${JSON.stringify(checks)}`).toEqual([]);
    }
  }, 60_000);
});

describe('--repeat', () => {
  it('runs each scenario N times and reports a check whose verdict differs as varying, for any client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'churn-repeat-'));
    try {
      const report = await runCheck({ client: `node ${CLIENT} alternate=${join(dir, 'runs')}`, scenarios: [scenario('gone-typescript-sdk')], repeat: 3, callTimeoutMs: 4000 });
      const [result] = report.scenarios;
      expect(result).toMatchObject({ runs: 3, status: 'varies' });
      expect(result!.checks.filter((c) => c.varies).map((c) => [c.name, c.varies])).toEqual([['dead-id-dropped', { passed: 2, runs: 3 }]]);
      expect(result!.checks.find((c) => c.name === 'dead-id-dropped')?.detail).toMatch(/^varies: passed 2 of 3; failed: request \d+ \(POST ping\)/);
      expect(report).toMatchObject({ varying: 1, scenariosPassed: 0, requiredFailed: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
