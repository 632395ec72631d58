import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIALECT_NAMES, type ChaosServer, type Fault } from '@mcp-resilience/chaos';
import { ResilienceError, SURFACED_ERROR_CODE } from '@mcp-resilience/core';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSoakArgs } from './soak-args.ts';
import { Conductor } from './soak-conductor.ts';
import { createRng } from './soak-random.ts';
import { buildSchedule, FAULT_KINDS, scheduleEndMs, SESSION_KILLERS, type ScheduleStep } from './soak-schedule.ts';
import { formatSummary } from './soak-summary.ts';
import { bucketOf, buildTimeline, countBy } from './soak-timeline.ts';
import { breaksGoal, goalsOf, judgeCalls, type CallRecord, type CallTraffic } from './soak-verdict.ts';
import { errorCodeOf, expectedText, planCall } from './soak-workload.ts';
import type { SoakReport } from './soak.ts';
import { HANG_CAP_MS, killRunning, readWritten, runNode } from './test-support/run-node.ts';

describe('seeded randomness', () => {
  it('draws the same sequence from the same seed, and stays in range', () => {
    const a = createRng(7);
    const b = createRng(7);
    const drawn = Array.from({ length: 50 }, () => a.int(3, 9));
    expect(Array.from({ length: 50 }, () => b.int(3, 9))).toEqual(drawn);
    expect(drawn.every((n) => n >= 3 && n <= 9)).toBe(true);
    expect(createRng(8).shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('the fault schedule', () => {
  const steps = buildSchedule({ seed: 11, calls: 1_500, clients: 6 });
  const killers = steps.filter((s) => SESSION_KILLERS.has(s.kind));

  it('is the same for the same seed and differs for another', () => {
    expect(buildSchedule({ seed: 11, calls: 1_500, clients: 6 })).toEqual(steps);
    expect(buildSchedule({ seed: 12, calls: 1_500, clients: 6 })).not.toEqual(steps);
  });

  it('has every kind in a round: those that end sessions once, the others twice', () => {
    const counts = countBy(steps, (s) => s.kind);
    for (const kind of FAULT_KINDS) expect(counts[kind]).toBe(SESSION_KILLERS.has(kind) ? 1 : 2);
    expect(buildSchedule({ seed: 11, calls: 20_000, clients: 6 }).length).toBe(8 * steps.length);
  });

  it('keeps steps that end sessions apart, and speaks every dialect in turn', () => {
    expect(steps.every((s, i) => i === 0 || s.atMs > steps[i - 1]!.atMs)).toBe(true);
    for (let i = 1; i < killers.length; i++) {
      expect(killers[i]!.atMs).toBeGreaterThanOrEqual(killers[i - 1]!.atMs + killers[i - 1]!.lastsMs + 3_000);
    }
    // A round has one step per kind that ends sessions; the dialects take as many rounds as they need.
    const rounds = Math.ceil(DIALECT_NAMES.length / SESSION_KILLERS.size);
    const dialects = buildSchedule({ seed: 11, calls: 1_500, clients: 6, rounds })
      .filter((s) => SESSION_KILLERS.has(s.kind))
      .map((s) => s.faults[0])
      .map((f) => (f?.kind === 'dialect' ? f.name : undefined));
    expect(new Set(dialects)).toEqual(new Set(DIALECT_NAMES));
    expect(scheduleEndMs(steps)).toBe(Math.max(...steps.map((s) => s.atMs + s.lastsMs)));
  });

  it('sets idle budgets longer than the longest single wait of a call, and ends episodes', () => {
    const idle = steps.find((s) => s.kind === 'idle-budget')!;
    const budget = idle.faults.find((f): f is Extract<Fault, { kind: 'idle-budget' }> => f.kind === 'idle-budget')!;
    expect(budget.ms).toBeGreaterThan(1_100);
    expect(idle.undo).toEqual([{ kind: 'idle-budget', ms: null }]);
    expect(steps.find((s) => s.kind === 'capacity')!.faults).toContainEqual({ kind: 'capacity', max: 5 });
  });
});

describe('the conductor', () => {
  const step = (index: number, kind: ScheduleStep['kind']): ScheduleStep =>
    ({ index, kind, atMs: index, lastsMs: 0, faults: [{ kind: 'evict', session: 'all' }] });

  it('applies due steps in order, and holds one that ends sessions until the clients got over the last', async () => {
    const applied: Fault[][] = [];
    const chaos = { applyFaults: async (faults: readonly Fault[]) => void applied.push([...faults]) } as unknown as ChaosServer;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const conductor = new Conductor(chaos, [step(0, 'status-500'), step(1, 'evict-all'), step(2, 'status-502'), step(3, 'restart')], {
      clock: () => 1_000_000, killSpacingMs: 0,
      recovered: (since) => since === Number.NEGATIVE_INFINITY || (held(), false),
    });
    const playing = conductor.play();
    await holding;
    expect(conductor.applied.map((s) => s.kind)).toEqual(['status-500', 'evict-all', 'status-502']);
    expect(conductor.lagMs()).toBeGreaterThan(0);
    conductor.stop();
    await playing;
    expect(applied).toHaveLength(3);
  });
});

describe('the timeline', () => {
  it('puts each moment in its slice, clamping to the first and the last', () => {
    expect(bucketOf(740, 250, 10)).toBe(2);
    expect(bucketOf(-5, 250, 10)).toBe(0);
    expect(bucketOf(99_999, 250, 10)).toBe(9);
    expect(() => buildTimeline({ calls: [], faults: [], reinitializations: [] }, 0, 10)).toThrow(RangeError);
  });

  it('counts calls, errors, faults by kind and re-initializations per slice', () => {
    const timeline = buildTimeline({
      calls: [{ endMs: 10, failed: false }, { endMs: 260, failed: true }, { endMs: 499, failed: false }],
      faults: [{ atMs: 300, kind: 'restart' }, { atMs: 301, kind: 'restart' }, { atMs: 20, kind: 'refuse' }],
      reinitializations: [310],
    }, 250, 500);
    expect(timeline).toEqual([
      { startMs: 0, completed: 1, errors: 0, faults: { refuse: 1 }, reinitializations: 0 },
      { startMs: 250, completed: 2, errors: 1, faults: { restart: 2 }, reinitializations: 1 },
    ]);
  });
});

describe('judging the calls', () => {
  const call = (label: string, tool: CallRecord['tool'], outcome: Partial<CallRecord>): CallRecord => {
    const args = tool === 'record' ? { key: label } : tool === 'add' ? { a: 1, b: 2 } : tool === 'slow' ? { ms: 10, steps: 2 } : { text: label };
    const planned = { label, tool, args };
    return { ...planned, client: 0, startMs: 0, endMs: 1, settled: 'fulfilled', text: expectedText(planned), ...outcome };
  };
  const calls = [
    call('c1', 'echo', {}),
    call('c2', 'add', { settled: 'rejected', errorCode: 'SESSION_LOST' }),
    call('c3', 'record', {}),
    call('c4', 'record', { settled: 'rejected', errorCode: 'OUTCOME_UNKNOWN' }),
    call('c5', 'record', { settled: 'rejected', errorCode: 'OUTCOME_UNKNOWN' }),
    call('c6', 'record', { settled: 'rejected', errorCode: 'RETRY_EXHAUSTED' }),
    call('c7', 'slow', { settled: 'hung', errorCode: 'HUNG' }),
    call('c8', 'add', { text: '4' }),
    // SESSION_LOST after "session gone" on two sessions (a second, separate loss), and after it twice on one (a dead id sent again).
    call('c9', 'echo', { settled: 'rejected', errorCode: 'SESSION_LOST' }),
    call('c10', 'echo', { settled: 'rejected', errorCode: 'SESSION_LOST' }),
  ];
  const ledger = { c3: 1, c5: 2 };
  const traffic: CallTraffic = {
    replays: new Map([['c1', 1], ['c2', 2], ['c9', 1], ['c10', 1]]), unattributedReplays: 0, sends: new Map([['c2', 3]]),
    sessionGone: new Map([['c9', 2], ['c10', 2]]), sessionsLost: new Map([['c9', new Set(['s1', 's2'])], ['c10', new Set(['s1'])]]),
  };
  const figures = judgeCalls(calls, ledger, traffic);

  it('counts errors of replay-safe calls by code, and broken record contracts from the ledger', () => {
    expect(figures.replaySafe).toEqual({ calls: 6, errors: 4, errorsByCode: { SESSION_LOST: 2, HUNG: 1, WRONG_RESULT: 1 }, secondLoss: 1 });
    expect([breaksGoal(calls[8]!, ledger, traffic), breaksGoal(calls[9]!, ledger, traffic), breaksGoal(calls[8]!, ledger)]).toEqual([false, true, true]);
    expect(figures.nonIdempotent.violations).toBe(2);
    expect(figures.nonIdempotent.violationsByReason).toEqual({ 'OUTCOME_UNKNOWN, executed 2×': 1, 'failed RETRY_EXHAUSTED, executed 0×': 1 });
    expect(figures.nonIdempotent.executions).toEqual({ 0: 2, 1: 1, 2: 1 });
    expect(figures.duplicates).toEqual({ keys: 1, extraExecutions: 1, sample: ['c5×2'] });
    expect(figures.replays).toEqual({ total: 5, max: 2, callsReplayed: 4, unattributed: 0 });
    expect(figures.hung).toBe(1);
  });

  it('fails every goal that was missed, and only those', () => {
    const missed = goalsOf(figures, calls.length).filter((g) => !g.met).map((g) => g.name);
    expect(missed).toEqual([
      'user-visible errors on replay-safe calls', 'duplicate executions of non-idempotent calls',
      'non-idempotent calls not exactly-once nor OUTCOME_UNKNOWN at-most-once', 'max replays per call', 'hung calls',
    ]);
    expect(goalsOf(figures, calls.length + 1).find((g) => g.name === 'calls made')!.met).toBe(false);
  });
});

describe('the workload', () => {
  it('plans the same call for the same number, with the answer it must get', () => {
    expect(planCall(createRng(3), 9)).toEqual(planCall(createRng(3), 9));
    expect(expectedText({ label: 'c1', tool: 'add', args: { a: 2, b: 3 } })).toBe('5');
    expect(expectedText({ label: 'c1', tool: 'record', args: { key: 'c1' } })).toBe('executions of c1: 1');
  });

  it('names a failure by the engine code in either form, else by HTTP status or MCP code', () => {
    expect(errorCodeOf(new ResilienceError({ code: 'OUTCOME_UNKNOWN', message: 'x' }))).toBe('OUTCOME_UNKNOWN');
    expect(errorCodeOf(new McpError(SURFACED_ERROR_CODE, 'x', { code: 'SESSION_LOST' }))).toBe('SESSION_LOST');
    expect(errorCodeOf(new McpError(-32001, 'Request timed out'))).toBe('MCP_-32001');
    expect(errorCodeOf(new StreamableHTTPError(503, 'x'))).toBe('HTTP_503');
  });
});

describe('the soak command arguments', () => {
  it('reads --short, --calls, --seed and --out, and refuses the rest', () => {
    expect(parseSoakArgs(['--short'])).toMatchObject({ short: true, calls: 1_500, bucketMs: 250 });
    expect(parseSoakArgs([])).toMatchObject({ short: false, calls: 20_000, bucketMs: 1_000 });
    expect(parseSoakArgs(['--calls', '300', '--seed=9', '--out', 'x.json'])).toMatchObject({ calls: 300, seed: 9, out: 'x.json' });
    expect(() => parseSoakArgs(['--calls', '0'])).toThrow(/--calls/);
    expect(() => parseSoakArgs(['--calls', '1e3'])).toThrow(/--calls/);
    expect(() => parseSoakArgs(['--fast'])).toThrow(/unknown/);
  });
});

describe('pnpm soak --short', () => {
  const main = fileURLToPath(new URL('../dist/soak-main.js', import.meta.url));

  afterAll(killRunning);
  const run = (args: readonly string[]) => runNode(main, args);

  it('meets every goal and applies every kind of fault of its schedule', async () => {
    expect(existsSync(main), 'build the bench package first (tsc -b)').toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'soak-'));
    try {
      const out = join(dir, 'soak-short.json');
      // Paced to its schedule (23 s here); its own deadline (no new call after it) would be three
      // times that, and a loaded machine that lags past it would make fewer calls than asked: here
      // the deadline is the run's hang cap (HANG_CAP_MS, twenty-six times the soak's length).
      const ran = await run(['--short', '--out', out, '--deadline-s', String(HANG_CAP_MS / 1000)]);
      expect(ran.code, ran.output).toBe(0);
      const report = readWritten<SoakReport & { command: string }>(out, ran);
      expect(report.command).toBe('soak --short');
      expect(report.calls).toBe(report.requestedCalls);
      expect(report.replaySafe.errors, JSON.stringify(report.failures)).toBe(0);
      expect(report.duplicates.extraExecutions).toBe(0);
      expect(report.nonIdempotent.violations).toBe(0);
      expect(report.replays.max).toBeLessThanOrEqual(1);
      expect(report.replays.unattributed).toBe(0);
      expect(report.hung).toBe(0);
      expect(report.faults.applied).toBe(report.faults.scheduled);
      expect(Object.keys(report.faults.byKind).sort()).toEqual([...FAULT_KINDS].sort());
      expect(report.passed).toBe(true);
      expect(report.timeline.buckets.reduce((sum, b) => sum + b.completed, 0)).toBe(report.calls);
      expect(formatSummary(report)).toContain('PASSED');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
