import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createResilientFetch } from './engine.ts';
import { loadScenarioFile, loadScenarios, SCENARIOS_DIR } from './load-scenarios.ts';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ResilienceError } from '@mcp-resilience/node';
import { SURFACED_ERROR_CODE as GAVE_UP_CODE } from '@mcp-resilience/core';
import { errorCode, runScenario, scenarioTrace } from './run-scenario.ts';
import { parseScenario, ScenarioError } from './scenario.ts';

const evict = loadScenarioFile(join(SCENARIOS_DIR, 'evict-typescript-sdk.json'), 'evict-typescript-sdk.json');
const minimal = {
  name: 'minimal', description: 'one call',
  steps: [{ call: { tool: 'echo', arguments: { text: 'hi' } }, expect: 'ok' }],
  expect: { trace: [] },
};

describe('runScenario can fail', () => {
  it('reports a wrong expected trace as a mismatch', async () => {
    const wrong = { ...evict, expect: { ...evict.expect, trace: evict.expect.trace.filter((e) => e.type !== 'replayed') } };
    const result = await runScenario(wrong, createResilientFetch);
    expect(result.ok).toBe(false);
    expect(result.trace).toEqual(evict.expect.trace);
    expect(result.mismatches).toEqual([expect.stringMatching(/^trace: expected .* got .*"replayed"/)]);
  });

  it('reports a call that does not come out as expected, naming the step', async () => {
    const scenario = parseScenario({ ...minimal, steps: [{ call: { tool: 'echo', arguments: { text: 'hi' } }, expect: { error: 'SESSION_LOST' } }] });
    const result = await runScenario(scenario, createResilientFetch);
    expect(result.ok).toBe(false);
    expect(result.mismatches).toEqual(['steps[0] (call): expected {"error":"SESSION_LOST"}, got ok "hi"']);
  });

  it('reports wire, ledger and session expectations that do not hold', async () => {
    const scenario = parseScenario({ ...minimal, expect: { trace: [], posts: ['tools/call 200 s1'], ledger: { k: 1 }, sessions: [] } });
    const result = await runScenario(scenario, createResilientFetch);
    expect(result.mismatches.map((m) => m.split(':')[0])).toEqual(['ledger', 'posts', 'sessions']);
  });
});

describe('scenario files the runner refuses', () => {
  const refuse = (value: unknown) => expect(() => parseScenario(value, 'x.json')).toThrow(ScenarioError);

  it('an unknown step kind', () => {
    refuse({ ...minimal, steps: [{ dropStream: true }] });
    expect(() => parseScenario({ ...minimal, steps: [{ dropStream: true }] }, 'x.json')).toThrow(/x\.json\.steps\[0\]: unknown field "dropStream"/);
  });

  it('a step with two kinds, or none', () => {
    refuse({ ...minimal, steps: [{ sleepMs: 1, faults: [] }] });
    refuse({ ...minimal, steps: [{}] });
  });

  it('a call without an expectation, an unknown error code, an expectation on a non-call step', () => {
    refuse({ ...minimal, steps: [{ call: { tool: 'echo' } }] });
    refuse({ ...minimal, steps: [{ call: { tool: 'echo' }, expect: { error: 'SESSION_GONE' } }] });
    refuse({ ...minimal, steps: [{ sleepMs: 5, expect: 'ok' }] });
  });

  it('a fault the chaos server would refuse, an unknown dialect, an unknown client option', () => {
    refuse({ ...minimal, steps: [{ faults: [{ kind: 'evict', session: 'everyone' }] }] });
    refuse({ ...minimal, chaos: { dialect: 'java-sdk' } });
    refuse({ ...minimal, client: { fetch: 'global' } });
  });

  it('request counts for an HTTP method Streamable HTTP does not use, or not counts', () => {
    refuse({ ...minimal, expect: { trace: [], requestCounts: { PUT: 0 } } });
    refuse({ ...minimal, expect: { trace: [], requestCounts: { DELETE: -1 } } });
    expect(parseScenario({ ...minimal, expect: { trace: [], requestCounts: { DELETE: 0, GET: 1 } } }).expect.requestCounts).toEqual({ DELETE: 0, GET: 1 });
  });

  it('an unknown top-level field, a missing trace', () => {
    refuse({ ...minimal, expected: { trace: [] } });
    refuse({ ...minimal, expect: {} });
  });

  describe('in a directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-sample-files-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('returns every unmappable file with its error, never skipping it', () => {
      writeFileSync(join(dir, 'a-not-json.json'), 'nope');
      writeFileSync(join(dir, 'b-misnamed.json'), JSON.stringify(minimal));
      writeFileSync(join(dir, 'c-notes.txt'), 'scenario ideas');
      writeFileSync(join(dir, 'minimal.json'), JSON.stringify(minimal));
      const files = loadScenarios(dir);
      expect(files.map((f) => [f.file, f.error?.message.replace(/:.*/s, '') ?? 'ok'])).toEqual([
        ['a-not-json.json', 'a-not-json.json'], ['b-misnamed.json', 'b-misnamed.json'], ['c-notes.txt', 'c-notes.txt'], ['minimal.json', 'ok'],
      ]);
      expect(files.every((f) => f.error === undefined || f.error instanceof ScenarioError)).toBe(true);
    });
  });
});

describe('errorCode: how a failed call is named', () => {
  it('a ResilienceError by its code', () => {
    expect(errorCode(new ResilienceError({ code: 'SESSION_LOST', message: 'lost' }))).toBe('SESSION_LOST');
  });

  it('the JSON-RPC error that ends a broken stream by its data.code; any other McpError is rejected', () => {
    expect(errorCode(new McpError(GAVE_UP_CODE, 'The response stream ended before the response', { code: 'OUTCOME_UNKNOWN' }))).toBe('OUTCOME_UNKNOWN');
    expect(errorCode(new McpError(GAVE_UP_CODE, 'no code'))).toBe('rejected');
    expect(errorCode(new McpError(-32000, 'server said', { code: 'OUTCOME_UNKNOWN' }))).toBe('rejected');
    expect(errorCode(new Error('timeout'))).toBe('rejected');
  });
});

describe('scenarioTrace', () => {
  it('drops the opening session-started of session 1 only, after normalizing', () => {
    expect(scenarioTrace([
      { type: 'session-started', session: 4, revision: '2025-11-25', atMs: 1 },
      { type: 'session-lost', session: 4, dialect: 'amdahl', cause: 'unknown', suspectedServerBug: false, sessionAgeMs: 5, idleMs: 1, atMs: 2 },
      { type: 'session-started', session: 5, revision: '2025-11-25', atMs: 3 },
    ])).toEqual([
      { type: 'session-lost', session: 1, dialect: 'amdahl', cause: 'unknown', suspectedServerBug: false },
      { type: 'session-started', session: 2, revision: '2025-11-25' },
    ]);
    expect(scenarioTrace([{ type: 'backed-off', verdict: 'rate-limited', attempt: 1, delayMs: 3 }])).toEqual([
      { type: 'backed-off', verdict: 'rate-limited', attempt: 1 },
    ]);
  });
});
