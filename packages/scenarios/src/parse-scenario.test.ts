import { describe, expect, it } from 'vitest';
import { isScenarioError, ScenarioError } from './errors.ts';
import { parseScenario } from './parse-scenario.ts';

const minimal = {
  name: 'minimal', description: 'one call',
  steps: [{ call: { tool: 'echo', arguments: { text: 'hi' } }, expect: 'ok' }],
  expect: { trace: [] },
};
const refuse = (value: unknown, message?: RegExp) => {
  expect(() => parseScenario(value, 'x.json')).toThrow(message ?? ScenarioError);
  try {
    parseScenario(value, 'x.json');
  } catch (error) {
    expect(isScenarioError(error, 'SCENARIO_INVALID')).toBe(true);
  }
};

describe('parseScenario reads what it can map', () => {
  it('a minimal scenario, with its defaults', () => {
    expect(parseScenario(minimal)).toEqual({
      name: 'minimal', description: 'one call', chaos: {}, connectAfterMs: 0, client: {},
      steps: [{ kind: 'call', call: { tool: 'echo', arguments: { text: 'hi' } }, expect: 'ok' }],
      expect: { trace: [] }, differences: [],
    });
  });

  it('the options of the chaos server a pool starts', () => {
    const chaos = {
      mode: 'legacy', dialect: 'amdahl', faults: [{ kind: 'capacity', max: 2 }], jsonResponses: true, exposeSessionId: false, taskBinding: 'server',
    };
    expect(parseScenario({ ...minimal, chaos }).chaos).toEqual(chaos);
  });

  it('every step kind', () => {
    const steps = [
      { concurrent: 3, call: { tool: 'echo' }, expect: { text: 'x' } }, { faults: [{ kind: 'evict', session: 'all' }] }, { sleepMs: 5 },
      { subscribe: 'chaos://counter' }, { setLogLevel: 'debug' }, { otherClient: 'connect' }, { call: { tool: 'record' }, expect: { error: 'OUTCOME_UNKNOWN' } },
    ];
    expect(parseScenario({ ...minimal, steps }).steps.map((s) => s.kind)).toEqual(['concurrent', 'faults', 'sleep', 'subscribe', 'set-log-level', 'other-client', 'call']);
  });

  it('a call on the async path, with the steps that run while its task runs', () => {
    const taskCall = { tool: 'job', arguments: { key: 'k', ms: 600 }, ttlMs: 30_000 };
    const steps = [{ taskCall, during: [{ faults: [{ kind: 'evict', session: 'all' }] }, { sleepMs: 10 }], expect: { error: 'TASK_LOST' } }];
    expect(parseScenario({ ...minimal, steps }).steps).toEqual([{
      kind: 'task-call', call: taskCall, during: [{ kind: 'faults', faults: [{ kind: 'evict', session: 'all' }] }, { kind: 'sleep', ms: 10 }],
      expect: { error: 'TASK_LOST' },
    }]);
    expect(parseScenario({ ...minimal, steps: [{ taskCall: { tool: 'job' }, expect: 'ok' }] }).steps[0]).toMatchObject({ during: [] });
  });
});

describe('scenario files the runner refuses', () => {
  it('a taskCall whose during holds a call, during on another step, a bad ttlMs, an unknown task binding', () => {
    refuse({ ...minimal, steps: [{ taskCall: { tool: 'job' }, during: [{ call: { tool: 'echo' }, expect: 'ok' }], expect: 'ok' }] }, /only faults and sleepMs/);
    refuse({ ...minimal, steps: [{ call: { tool: 'echo' }, during: [], expect: 'ok' }] }, /"during" belongs to taskCall steps only/);
    refuse({ ...minimal, steps: [{ taskCall: { tool: 'job', ttlMs: -1 }, expect: 'ok' }] });
    refuse({ ...minimal, steps: [{ taskCall: { tool: 'job' } }] }, /needs "expect"/);
    refuse({ ...minimal, chaos: { taskBinding: 'forever' } });
  });

  it('an unknown step kind', () => {
    refuse({ ...minimal, steps: [{ dropStream: true }] }, /x\.json\.steps\[0\]: unknown field "dropStream"/);
  });

  it('a step with two kinds, or none', () => {
    refuse({ ...minimal, steps: [{ sleepMs: 1, faults: [] }] });
    refuse({ ...minimal, steps: [{}] });
  });

  it('a call without an expectation, an unknown error code, an expectation on a non-call step', () => {
    refuse({ ...minimal, steps: [{ call: { tool: 'echo' } }] });
    refuse({ ...minimal, steps: [{ call: { tool: 'echo' }, expect: { error: 'SESSION_GONE' } }] });
    refuse({ ...minimal, steps: [{ call: { tool: 'echo' }, expect: 'fine' }] });
    refuse({ ...minimal, steps: [{ sleepMs: 5, expect: 'ok' }] });
  });

  it('a fault the chaos server would refuse, an unknown dialect or mode, an unknown client option', () => {
    refuse({ ...minimal, steps: [{ faults: [{ kind: 'evict', session: 'everyone' }] }] });
    refuse({ ...minimal, chaos: { dialect: 'java-sdk' } });
    refuse({ ...minimal, chaos: { mode: 'retro' } });
    refuse({ ...minimal, chaos: { upstream: 'http://127.0.0.1:9/mcp' } });
    refuse({ ...minimal, chaos: { jsonResponses: 'yes' } });
    refuse({ ...minimal, client: { fetch: 'global' } });
    refuse({ ...minimal, client: { backoff: { initialMs: '10' } } });
  });

  it('request counts for an HTTP method Streamable HTTP does not use, or not counts', () => {
    refuse({ ...minimal, expect: { trace: [], requestCounts: { PUT: 0 } } });
    refuse({ ...minimal, expect: { trace: [], requestCounts: { DELETE: -1 } } });
    expect(parseScenario({ ...minimal, expect: { trace: [], requestCounts: { DELETE: 0, GET: 1 } } }).expect.requestCounts).toEqual({ DELETE: 0, GET: 1 });
  });

  it('an unknown top-level field, a missing trace, no steps', () => {
    refuse({ ...minimal, expected: { trace: [] } });
    refuse({ ...minimal, expect: {} });
    refuse({ ...minimal, steps: [] });
    refuse('not an object');
  });
});

describe('declared differences', () => {
  const steps = [{ call: { tool: 'echo', arguments: { text: 'hi' } }, expect: 'ok' }, { sleepMs: 1 }];
  const difference = {
    runtimes: ['browser', 'workerd'], what: 'the call fails instead', why: 'a refused connection reads like a broken one there',
    expect: { trace: [{ type: 'gave-up', code: 'OUTCOME_UNKNOWN' }] }, steps: { 0: { error: 'OUTCOME_UNKNOWN' } },
  };

  it('are read with the runtimes they name, what differs, why, and what they replace', () => {
    expect(parseScenario({ ...minimal, steps, differences: [difference] }).differences).toEqual([{
      runtimes: ['browser', 'workerd'], what: 'the call fails instead', why: 'a refused connection reads like a broken one there',
      expect: { trace: [{ type: 'gave-up', code: 'OUTCOME_UNKNOWN' }] }, steps: { 0: { error: 'OUTCOME_UNKNOWN' } },
    }]);
  });

  it('refuse an unknown runtime, a runtime named twice, a missing why, an empty list', () => {
    refuse({ ...minimal, steps, differences: [{ ...difference, runtimes: ['bun'] }] }, /runtimes\[0\]: must be one of node, deno, workerd, browser/);
    refuse({ ...minimal, steps, differences: [difference, { ...difference, runtimes: ['workerd'] }] }, /workerd is already named/);
    refuse({ ...minimal, steps, differences: [{ runtimes: ['deno'], what: 'x', expect: { trace: [] } }] }, /missing "why"/);
    refuse({ ...minimal, steps, differences: [] });
  });

  it('refuse a difference that replaces nothing, or a step that is not a call, or the script itself', () => {
    const { runtimes, what, why } = difference;
    refuse({ ...minimal, steps, differences: [{ runtimes, what, why }] }, /must replace something/);
    refuse({ ...minimal, steps, differences: [{ runtimes, what, why, expect: {} }] }, /at least one/);
    refuse({ ...minimal, steps, differences: [{ runtimes, what, why, steps: { 1: 'ok' } }] }, /steps\[1\] is a sleep step/);
    refuse({ ...minimal, steps, differences: [{ runtimes, what, why, steps: { 7: 'ok' } }] }, /index of a step/);
    refuse({ ...minimal, steps, differences: [{ runtimes, what, why, faults: [] }] }, /unknown field "faults"/);
    refuse({ ...minimal, steps, differences: [{ runtimes, what, why, expect: { trace: [], timing: 3 } }] }, /unknown field "timing"/);
  });
});
