/**
 * fast-check arbitraries for the property tests of the pure core (`src/*.property.test.ts`).
 * Test support only: excluded from the build by `tsconfig.json` (`src/test-support`) and not
 * matched by the test glob.
 */
import fc from 'fast-check';
import { equalJitter, fullJitter, noJitter, type Backoff, type Jitter } from '../backoff.ts';
import { advance, createRetryPolicy, decide, type Action, type CallState, type RetryPolicy } from '../decide.ts';
import { SESSION_GONE_DIALECTS } from '../dialects.ts';
import type { ResilienceEvent } from '../events.ts';
import type { Observation, RequestFacts } from '../observation.ts';
import { REPLAY_SAFE_METHODS, type Operation, type ReplayPolicy, type ToolTrust } from '../replay-safety.ts';
import type { RestartWait } from '../restart-wait.ts';
import type { RetryAfter } from '../retry-after.ts';
import type { Verdict } from '../verdict.ts';

// ---------------------------------------------------------------- revisions

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** A syntactically valid YYYY-MM-DD between two dates (inclusive), as the revision table compares them. */
const datedBetween = (from: string, to: string) =>
  fc
    .date({ min: new Date(`${from}T00:00:00Z`), max: new Date(`${to}T00:00:00Z`), noInvalidDate: true })
    .map((d) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`);

/** Revisions with sessions: the three sessionful ones and unknown dates between them. */
export const sessionfulRevisionArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25'),
  datedBetween('2025-03-26', '2026-07-27'),
);

/** Revisions without session logic: 2024-11-05 and earlier dates, 2026-07-28 and any later date. */
export const sessionlessRevisionArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('2024-11-05', '2026-07-28'),
  datedBetween('2026-07-28', '9999-12-31'),
  datedBetween('1970-01-01', '2025-03-25'),
);

/** Any revision a connection could report, including none and garbage. */
export const anyRevisionArb: fc.Arbitrary<string | undefined> = fc.oneof(
  sessionfulRevisionArb,
  sessionlessRevisionArb,
  fc.constant(undefined),
  fc.string({ maxLength: 12 }),
);

// ---------------------------------------------------------------- numbers

/** Random numbers for jitter: the valid range, its edges, and values a caller should not pass. */
export const randomArb: fc.Arbitrary<number> = fc.oneof(
  fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  fc.constantFrom(0, -0, 0.5, 1 - Number.EPSILON, 0.9999999999, 1, 1.5, -0.5, -1, 42, Number.NaN, Infinity, -Infinity),
  fc.double(),
);

/** Random numbers inside [0, 1], for properties about something other than bad randomness. */
export const saneRandomArb: fc.Arbitrary<number> = fc.oneof(
  fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  fc.constantFrom(0, 0.5, 1 - Number.EPSILON),
);

/** A clock reading as the engine takes it (`Date.now()`): an integer ms epoch. */
export const nowMsArb: fc.Arbitrary<number> = fc.integer({ min: 0, max: 4_102_444_800_000 });

// ---------------------------------------------------------------- verdicts

/** A `Retry-After` as `parseRetryAfter` can produce it; dates near `nowMs` so both cap outcomes occur. */
export const retryAfterArb = (nowMs: number): fc.Arbitrary<RetryAfter> =>
  fc.oneof(
    fc.oneof(fc.nat({ max: 200_000 }), fc.nat({ max: 200 }).map((s) => s * 1000), fc.constant(Number.MAX_SAFE_INTEGER))
      .map((ms): RetryAfter => ({ kind: 'delay', ms })),
    fc.integer({ min: -100_000, max: 200_000 }).map((offset): RetryAfter => ({ kind: 'date', epochMs: nowMs + offset })),
    fc.integer({ min: 0, max: 4_102_444_800 }).map((s): RetryAfter => ({ kind: 'date', epochMs: s * 1000 })),
    fc.string({ maxLength: 10 }).map((raw): RetryAfter => ({ kind: 'invalid', raw })),
  );

const optionalRetryAfter = (nowMs: number) => fc.option(retryAfterArb(nowMs), { nil: undefined });
const withOptional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

const dialectNameArb = fc.oneof(fc.constantFrom(...SESSION_GONE_DIALECTS.map((d) => d.name)), fc.string({ maxLength: 8 }));

export const sessionGoneArb = (outcome?: 'not-processed' | 'unknown'): fc.Arbitrary<Verdict> =>
  fc
    .tuple(dialectNameArb, outcome ? fc.constant(outcome) : fc.constantFrom('not-processed' as const, 'unknown' as const),
      fc.option(fc.nat({ max: 100_000 }), { nil: undefined }))
    .map(([dialect, o, uptime]): Verdict => ({ kind: 'session-gone', dialect, outcome: o, ...withOptional('serverUptimeSeconds', uptime) }));

export const brokenStreamArb = (resumable?: boolean): fc.Arbitrary<Verdict> =>
  fc
    .tuple(resumable === undefined ? fc.boolean() : fc.constant(resumable), fc.string({ minLength: 1, maxLength: 8 }),
      fc.option(fc.oneof(fc.nat({ max: 5_000 }), fc.nat({ max: 200_000 })), { nil: undefined }))
    .map(([r, lastEventId, retryMs]): Verdict =>
      r ? { kind: 'broken-stream', resumable: true, lastEventId, ...withOptional('retryMs', retryMs) } : { kind: 'broken-stream', resumable: false });

export const serverErrorArb = (nowMs: number, retryable?: boolean): fc.Arbitrary<Verdict> =>
  fc
    .tuple(
      retryable === true ? fc.constantFrom(500, 502, 504, 507, 599) : retryable === false ? fc.constantFrom(501, 505) : fc.constantFrom(500, 501, 502, 504, 505, 507, 599),
      optionalRetryAfter(nowMs),
    )
    .map(([status, retryAfter]): Verdict => ({
      kind: 'server-error', status, retryable: status !== 501 && status !== 505, ...withOptional('retryAfter', retryAfter),
    }));

/**
 * Any valid verdict, with `Retry-After` dates around `nowMs`. Weighted towards failures that
 * keep a call going (session loss above all), so that sequences reach replays, retries and resumes.
 */
export const verdictArb = (nowMs: number): fc.Arbitrary<Verdict> =>
  fc.oneof(
    { arbitrary: fc.constant<Verdict>({ kind: 'success' }), weight: 1 },
    { arbitrary: sessionGoneArb(), weight: 6 },
    { arbitrary: optionalRetryAfter(nowMs).map((retryAfter): Verdict => ({ kind: 'rate-limited', ...withOptional('retryAfter', retryAfter) })), weight: 3 },
    { arbitrary: optionalRetryAfter(nowMs).map((retryAfter): Verdict => ({ kind: 'unavailable', ...withOptional('retryAfter', retryAfter) })), weight: 2 },
    { arbitrary: serverErrorArb(nowMs), weight: 2 },
    {
      arbitrary: fc.record({ status: fc.integer({ min: 400, max: 499 }), code: fc.integer() }, { requiredKeys: [] })
        .map((r): Verdict => ({ kind: 'client-error', ...r })),
      weight: 1,
    },
    { arbitrary: brokenStreamArb(), weight: 3 },
    {
      arbitrary: fc.constantFrom<Verdict>({ kind: 'outcome-unknown', reason: 'connection-broken' }, { kind: 'outcome-unknown', reason: 'timeout' }),
      weight: 2,
    },
    { arbitrary: fc.constant<Verdict>({ kind: 'not-processed', reason: 'connection-refused' }), weight: 3 },
    { arbitrary: fc.constant<Verdict>({ kind: 'method-not-found' }), weight: 1 },
    {
      arbitrary: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }).map((supported): Verdict => ({ kind: 'version-unsupported', supported })),
      weight: 1,
    },
    { arbitrary: fc.string({ maxLength: 20 }).map((contentType): Verdict => ({ kind: 'malformed', contentType })), weight: 1 },
  );

// ---------------------------------------------------------------- operations and policies

const toolNameArb = fc.constantFrom('search', 'charge', 'pay', 'lookup', 'delete_all');

export const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  fc.constantFrom(...REPLAY_SAFE_METHODS).map((method): Operation => ({ method })),
  fc.constantFrom('sampling/createMessage', 'elicitation/create', 'notifications/cancelled', 'custom/op').map((method): Operation => ({ method })),
  fc
    .record(
      {
        toolName: toolNameArb,
        annotations: fc.record(
          { readOnlyHint: fc.boolean(), idempotentHint: fc.boolean(), destructiveHint: fc.boolean(), openWorldHint: fc.boolean() },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    )
    .map((r): Operation => ({ method: 'tools/call', ...r })),
  fc.constant<Operation>({}),
);

/** Operations with a method (a request, not a POSTed response). */
export const requestOperationArb: fc.Arbitrary<Operation> = operationArb.filter((op) => op.method !== undefined);

export const replayPolicyArb: fc.Arbitrary<ReplayPolicy> = fc.oneof(
  fc.constantFrom<ReplayPolicy>('safe', 'always', 'never'),
  fc.func<[Operation], boolean>(fc.boolean()),
);

export const toolTrustArb: fc.Arbitrary<ToolTrust> = fc.record(
  {
    readOnlyTools: fc.subarray(['search', 'lookup']),
    idempotentTools: fc.subarray(['charge', 'lookup']),
    trustAnnotations: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Jitters: the three shipped ones and hostile ones that return garbage. */
export const jitterArb: fc.Arbitrary<Jitter> = fc.constantFrom<Jitter>(
  fullJitter,
  equalJitter,
  noJitter,
  () => Number.NaN,
  (d) => -d - 1,
  (d) => d * 10 + 1,
  () => Infinity,
);

/** Durations: whole ms, fractional ms, and the half-ms edges where rounding turns. */
const msArb = (max: number) =>
  fc.oneof(fc.nat({ max }), fc.double({ min: 0, max, noNaN: true }), fc.nat({ max: Math.floor(max) - 1 }).map((n) => n + 0.5));

export const backoffOverridesArb: fc.Arbitrary<Partial<Backoff>> = fc
  .record({
    initialMs: msArb(5_000),
    extraMs: msArb(20_000),
    factor: fc.oneof(fc.constantFrom(1, 1.5, 2, 3), fc.double({ min: 1, max: 10, noNaN: true })),
    maxAttempts: fc.nat({ max: 8 }),
    maxTotalDelayMs: msArb(120_000),
    jitter: jitterArb,
  })
  .map(({ extraMs, ...b }) => ({ ...b, maxMs: b.initialMs + extraMs }));

export const restartWaitOverridesArb: fc.Arbitrary<Partial<RestartWait>> = fc
  .record({
    initialMs: msArb(2_000).map((ms) => ms + 1),
    extraMs: msArb(10_000),
    factor: fc.oneof(fc.constantFrom(1, 1.5, 2), fc.double({ min: 1, max: 10, noNaN: true })),
    maxWaitMs: msArb(60_000),
    jitter: jitterArb,
  })
  .map(({ extraMs, ...w }) => ({ ...w, maxMs: w.initialMs + extraMs }));

/** Any policy `createRetryPolicy` accepts. */
export const policyArb: fc.Arbitrary<RetryPolicy> = fc
  .record({
    backoff: backoffOverridesArb,
    restartWait: restartWaitOverridesArb,
    retryAfterCapMs: msArb(120_000),
    maxResumes: fc.nat({ max: 5 }),
    replay: replayPolicyArb,
    tools: toolTrustArb,
  })
  .map((overrides) => createRetryPolicy(overrides));

export const callStateArb: fc.Arbitrary<CallState> = fc.record({
  replays: fc.nat({ max: 2 }),
  retries: fc.nat({ max: 10 }),
  resumes: fc.nat({ max: 6 }),
  delayMs: fc.nat({ max: 150_000 }),
});

// ---------------------------------------------------------------- running one logical call

export interface CallRun {
  readonly verdicts: readonly Verdict[];
  readonly operation: Operation;
  readonly revision: string | undefined;
  readonly policy: RetryPolicy;
  readonly nowMs: number;
  readonly randoms: readonly number[];
  readonly retryBudgetAllows: boolean | undefined;
}

/** One decision of a run, with the call state it was taken in. */
export interface Step {
  readonly verdict: Verdict;
  readonly before: CallState;
  readonly action: Action;
}

/** Arbitrary inputs for one logical call: a sequence of verdicts and everything decide looks at. */
export const callRunArb = (
  options: {
    revision?: fc.Arbitrary<string | undefined>;
    random?: fc.Arbitrary<number>;
    operation?: fc.Arbitrary<Operation>;
    verdict?: (nowMs: number) => fc.Arbitrary<Verdict>;
  } = {},
): fc.Arbitrary<CallRun> =>
  nowMsArb.chain((nowMs) =>
    fc.record({
      verdicts: fc.array((options.verdict ?? verdictArb)(nowMs), { minLength: 1, maxLength: 30 }),
      operation: options.operation ?? operationArb,
      revision: options.revision ?? anyRevisionArb,
      policy: policyArb,
      nowMs: fc.constant(nowMs),
      randoms: fc.array(options.random ?? randomArb, { minLength: 1, maxLength: 30 }),
      retryBudgetAllows: fc.constantFrom(undefined, true, true, false),
    }),
  );

/**
 * The engine's loop for one call: decide, carry out, advance; stops at `deliver` or `give-up`
 * or when the verdicts run out. The clock moves on by each finite delay waited.
 */
export function runCall(run: CallRun): Step[] {
  const steps: Step[] = [];
  let call: CallState = { replays: 0, retries: 0, resumes: 0, delayMs: 0 };
  let nowMs = run.nowMs;
  for (const [i, verdict] of run.verdicts.entries()) {
    const action = decide({
      verdict, call, operation: run.operation, nowMs, random: run.randoms[i % run.randoms.length]!, policy: run.policy,
      ...(run.revision === undefined ? {} : { revision: run.revision }),
      ...(run.retryBudgetAllows === undefined ? {} : { retryBudgetAllows: run.retryBudgetAllows }),
    });
    steps.push({ verdict, before: call, action });
    if (action.type === 'deliver' || action.type === 'give-up') break;
    call = advance(call, action);
    if ('delayMs' in action && Number.isFinite(action.delayMs)) nowMs += action.delayMs;
  }
  return steps;
}

// ---------------------------------------------------------------- observations

const rpcBody = (code: number, message: string, data?: unknown, id: unknown = null) =>
  ({ jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) }, id });

/** Bodies that the dialect table knows, as text and as parsed JSON. */
export const dialectBodyArb: fc.Arbitrary<unknown> = fc
  .oneof(
    fc.nat({ max: 100_000 }).map((up) =>
      rpcBody(-32000, 'Session not found. Please reinitialize.', { reason: 'session_not_found', action: 'reinitialize_and_replay_once', server_uptime_seconds: up }, 12)),
    fc.constant(rpcBody(-32001, 'Session not found')),
    fc.constant(rpcBody(-32600, 'Bad Request: No valid session ID provided')),
    fc.constant(rpcBody(-32000, 'Bad Request: No valid session ID provided')),
    fc.constant(rpcBody(-32000, 'Connection closed')),
    fc.constant(rpcBody(-32601, 'Method not found', undefined, 3)),
    fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }).map((supported) => rpcBody(-32022, 'Unsupported protocol version', { supported })),
    fc.constantFrom('session not found', 'session not found\n', 'Bad Request: No valid session ID provided', 'No active transport'),
  )
  .chain((body) => (typeof body === 'string' ? fc.constant(body) : fc.constantFrom(body, JSON.stringify(body), JSON.stringify([body]))));

/** Anything a server could send as a body, and anything a caller could pass as one. */
export const bodyArb: fc.Arbitrary<unknown> = fc.oneof(
  dialectBodyArb,
  fc.record({ code: fc.oneof(fc.integer(), fc.double()), message: fc.oneof(fc.string(), fc.anything()), data: fc.anything() }, { requiredKeys: [] })
    .chain((error) => fc.constantFrom<unknown>({ jsonrpc: '2.0', error, id: 1 }, JSON.stringify({ error }), [{ result: 1 }, { error }])),
  fc.string(),
  fc.json(),
  fc.jsonValue(),
  fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }),
  fc.constantFrom('<html>502 Bad Gateway</html>', '', '{', 'null', '[]', '[null]', '{"error":null}', '{"error":{"code":"1"}}'),
);

const httpDateArb = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toUTCString());

/** `Retry-After` header values: valid seconds and dates, and garbage. */
export const retryAfterHeaderArb: fc.Arbitrary<string> = fc.oneof(
  fc.nat().map(String),
  fc.string({ unit: fc.constantFrom('0', '1', '9'), minLength: 1, maxLength: 400 }),
  fc.constantFrom('-1', '1.5', 'NaN', 'Infinity', '1e3', ' 2 ', '', '  ', '0x10', 'Wed, 21 Oct 2026 07:28:00 GMT',
    'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994', 'Mon, 31 Feb 2026 00:00:00 GMT', 'Mon, 01 Jan 0050 00:00:00 GMT',
    'Mon, 01 Jan 2026 25:00:00 GMT', 'Thu, 01 Jan 1970 00:00:00 GMT'),
  httpDateArb,
  fc.string(),
  fc.string({ unit: 'binary' }),
);

const contentTypeArb = fc.oneof(
  fc.constantFrom('application/json', 'text/event-stream; charset=utf-8', 'TEXT/HTML', ';', ' ', 'application/json;', 'text/plain'),
  fc.string(),
);

export const requestFactsArb = (options: { revision?: fc.Arbitrary<string | undefined>; sessionIdSent?: fc.Arbitrary<boolean> } = {}): fc.Arbitrary<RequestFacts> =>
  fc
    .record({
      revision: options.revision ?? anyRevisionArb,
      sessionIdSent: options.sessionIdSent ?? fc.boolean(),
      httpMethod: fc.option(fc.constantFrom('POST' as const, 'GET' as const, 'DELETE' as const), { nil: undefined }),
      rpcMethod: fc.option(fc.oneof(fc.constantFrom('tools/call', 'initialize', 'ping'), fc.string({ maxLength: 8 })), { nil: undefined }),
    })
    .map(({ revision, sessionIdSent, httpMethod, rpcMethod }): RequestFacts => ({
      sessionIdSent,
      ...withOptional('revision', revision),
      ...withOptional('httpMethod', httpMethod),
      ...withOptional('rpcMethod', rpcMethod),
    }));

export type HttpObservation = Extract<Observation, { kind: 'http' }>;

export const httpObservationArb = (
  options: { status?: fc.Arbitrary<number>; revision?: fc.Arbitrary<string | undefined>; sessionIdSent?: fc.Arbitrary<boolean> } = {},
): fc.Arbitrary<HttpObservation> =>
  fc
    .record({
      facts: requestFactsArb(options),
      status: options.status ?? fc.integer({ min: 100, max: 599 }),
      retryAfter: fc.option(retryAfterHeaderArb),
      contentType: fc.option(contentTypeArb),
      body: fc.option(bodyArb, { nil: undefined }),
    })
    .map(({ facts, status, retryAfter, contentType, body }): HttpObservation => ({
      ...facts, kind: 'http', status, retryAfter, contentType, ...withOptional('body', body),
    }));

const rpcErrorMessageArb = fc.oneof(
  fc.constantFrom('Connection closed', 'Request timed out', 'Session not found', 'Session not found. Please reinitialize.',
    'MCP error -32000: Connection closed', 'MCP error -32001: Request timed out', 'MCP error -32000: Session not found'),
  fc.string(),
);

export const observationArb = (
  options: { revision?: fc.Arbitrary<string | undefined>; sessionIdSent?: fc.Arbitrary<boolean> } = {},
): fc.Arbitrary<Observation> =>
  fc.oneof(
    httpObservationArb(options),
    fc
      .record({
        facts: requestFactsArb(options),
        lastEventId: fc.option(fc.oneof(fc.constant(''), fc.string({ maxLength: 8 })), { nil: undefined }),
        retryMs: fc.option(fc.oneof(fc.integer(), fc.double()), { nil: undefined }),
      })
      .map(({ facts, lastEventId, retryMs }): Observation => ({
        ...facts, kind: 'stream-ended', ...withOptional('lastEventId', lastEventId), ...withOptional('retryMs', retryMs),
      })),
    fc.tuple(requestFactsArb(options), fc.constantFrom('before-send' as const, 'after-send' as const))
      .map(([facts, phase]): Observation => ({ ...facts, kind: 'network', phase })),
    fc.tuple(requestFactsArb(options), fc.oneof(fc.constantFrom(-32000, -32001, -32600, -32601), fc.integer()), rpcErrorMessageArb, fc.option(fc.anything(), { nil: undefined }))
      .map(([facts, code, message, data]): Observation => ({ ...facts, kind: 'rpc-error', code, message, ...withOptional('data', data) })),
    requestFactsArb(options).map((facts): Observation => ({ ...facts, kind: 'timeout' })),
  );

// ---------------------------------------------------------------- events

const sessionNumberArb = fc.integer({ min: 1, max: 12 });
const atArb = fc.option(fc.nat(), { nil: undefined });
const methodArb = fc.option(fc.constantFrom('tools/call', 'tools/list', 'ping'), { nil: undefined });
const codeArb = fc.constantFrom('SESSION_LOST', 'OUTCOME_UNKNOWN', 'RETRY_EXHAUSTED', 'RETRY_AFTER_TOO_LONG') ;

/**
 * An arbitrary event; `session` draws the session numbers (so a caller can make them
 * increase). `atMs`, `method` and other optional fields are sometimes absent, sometimes undefined.
 */
export const eventArb = (session: fc.Arbitrary<number> = sessionNumberArb): fc.Arbitrary<ResilienceEvent> =>
  fc.oneof(
    fc.record({ type: fc.constant('session-started' as const), session, revision: sessionfulRevisionArb, atMs: atArb }),
    fc.record({
      type: fc.constant('session-lost' as const), session, dialect: dialectNameArb, method: methodArb,
      cause: fc.constantFrom('server-restarted' as const, 'idle-expired' as const, 'unknown' as const),
      suspectedServerBug: fc.boolean(), sessionAgeMs: fc.nat(), idleMs: fc.nat(),
      serverUptimeSeconds: fc.option(fc.nat(), { nil: undefined }), atMs: atArb,
    }),
    fc.record({ type: fc.constant('session-reinitialized' as const), from: session, to: session, reason: fc.constantFrom('lost' as const, 'idle' as const), atMs: atArb }),
    fc.record({
      type: fc.constant('session-changed' as const), from: session, to: session,
      revision: fc.option(fc.record({ from: sessionfulRevisionArb, to: sessionfulRevisionArb }), { nil: undefined }),
      capabilities: fc.array(fc.constantFrom('tools', 'resources', 'prompts'), { maxLength: 3 }), atMs: atArb,
    }),
    fc.record({ type: fc.constant('state-restored' as const), session, subscriptions: fc.nat({ max: 5 }), logLevel: fc.option(fc.constantFrom('info', 'debug'), { nil: undefined }), atMs: atArb }),
    fc.record({ type: fc.constant('replayed' as const), session, method: fc.constantFrom('tools/call', 'tools/list'), atMs: atArb }),
    fc.record({
      type: fc.constant('backed-off' as const), method: methodArb, verdict: fc.constantFrom('rate-limited' as const, 'unavailable' as const, 'server-error' as const),
      status: fc.option(fc.constantFrom(429, 503, 500), { nil: undefined }), attempt: fc.integer({ min: 1, max: 5 }), delayMs: fc.nat(), atMs: atArb,
    }),
    fc.record({ type: fc.constant('resumed' as const), method: methodArb, attempt: fc.integer({ min: 1, max: 5 }), delayMs: fc.nat(), atMs: atArb }),
    fc.record({ type: fc.constant('reissued' as const), method: methodArb, attempt: fc.integer({ min: 1, max: 5 }), delayMs: fc.nat(), atMs: atArb }),
    fc.record({ type: fc.constant('gave-up' as const), method: methodArb, code: codeArb, atMs: atArb }),
  ) as fc.Arbitrary<ResilienceEvent>;
