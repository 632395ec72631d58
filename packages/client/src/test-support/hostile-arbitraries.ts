import { SURFACED_ERROR_CODE } from '@mcp-resilience/core';
import fc from 'fast-check';
import type { AcceptedBody, BadSse, Behaviour, BodyKind, GetBehaviour, IdKind, NoteBehaviour, SessionGoneKind } from './hostile-behaviours.ts';
import type { HostileScript } from './hostile-server.ts';

/*
 * How fast-check draws a hostile server: its script (one list of behaviours per kind of
 * request) and the calls the client makes. Behaviours that leave a call without its answer for
 * good (a stall, on which the test ends the call; a 2xx that answers nothing) come at most once
 * a scenario, in about one scenario in twelve, so that most scenarios go on to their other behaviours.
 */

export type Tool = 'echo' | 'write';
export interface Scenario {
  readonly script: HostileScript;
  /** Tool calls made one after the other, or all at once; `echo` is vouched for as read-only, `write` is not. */
  readonly calls: readonly Tool[];
  readonly concurrent: boolean;
}

/** Retry-After values a server should never send, and some it may. */
export const retryAfterArb = fc.constantFrom(
  '0', '1', '-1', '-0', 'NaN', '1e3', '0.5', '+1', ' 0 ', '1, 2', 'soon', '\xff\xfe', '99999999999999999999999',
  String(Number.MAX_SAFE_INTEGER), 'Wed, 21 Oct 2015 07:28:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'Sun, 06 Nov 1994 08:49:37 GMT',
  'Sunday, 06-Nov-94 08:49:37 GMT', 'Thu, 31 Feb 2030 00:00:00 GMT', '',
);
/** `server_uptime_seconds` values, spliced raw into JSON (some make it invalid JSON). */
const uptimeArb = fc.constantFrom('47', '0', '-5', '-1e9', '1e308', '1e400', '-1e400', 'NaN', 'Infinity', '"47"', 'null', '{}', '[1]', '1.5', '99999999999999999999');
/** Garbage JSON-RPC `data` blocks (raw JSON). */
const dataArb = fc.constantFrom(
  'null', '"session_not_found"', '42', '[]', '[{"reason":"session_not_found"}]', '{"reason":42}', '{"reason":"session_not_found"}',
  '{"reason":"session_not_found","server_uptime_seconds":"soon"}', `${'['.repeat(3000)}${']'.repeat(3000)}`, '{"__proto__":{"x":1}}',
);
/** Any JSON-RPC error code but the engine's own (a server that sends that one cannot be told from the engine). */
const rpcCodeArb = fc.oneof(fc.constantFrom(-32700, -32600, -32601, -32602, -32603, -32000, -32001, -32002, 0, 1), fc.integer({ min: -33000, max: 1000 }))
  .filter((code) => code !== SURFACED_ERROR_CODE);
const sessionGoneKindArb = fc.constantFrom<SessionGoneKind>('amdahl', 'typescript-sdk', 'python-sdk', 'go-sdk', 'express-400', 'html-404', 'empty-404', 'huge-404');
export const sessionGoneArb: fc.Arbitrary<Extract<Behaviour, { kind: 'session-gone' }>> = fc.oneof(
  fc.record({ kind: fc.constant('session-gone' as const), dialect: sessionGoneKindArb }),
  fc.record({ kind: fc.constant('session-gone' as const), dialect: fc.constant('amdahl' as const), uptime: uptimeArb }),
  fc.record({ kind: fc.constant('session-gone' as const), dialect: fc.constant('amdahl' as const), data: dataArb }),
);

const interestingStatus = fc.constantFrom(
  200, 300, 304, 400, 401, 403, 404, 405, 406, 409, 410, 413, 415, 422, 429, 431, 451,
  500, 501, 502, 503, 504, 505, 507, 511, 599,
);
/** Any status 200–599: a 2xx without an answer to the request is decided like a stream that ended before it. */
const statusArb = fc.oneof(interestingStatus, fc.integer({ min: 200, max: 599 }));
const contentTypeArb = fc.constantFrom('text/html', 'text/plain', 'application/octet-stream', 'application/json; charset=utf-8', 'text/event-stream', 'APPLICATION/JSON', 'application/jsonx', 'multipart/mixed');
const idKindArb = fc.constantFrom<IdKind>('plain', 'control', 'latin1', 'spaces', 'long', 'overlong', 'empty');
/** `arb` one time in `oneIn`, else undefined. */
const optional = <T>(arb: fc.Arbitrary<T>, oneIn = 2): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
/** `{ k: X | undefined }` as `{ k?: X }` (exactOptionalPropertyTypes). */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & { [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined> };
/** Drops `undefined` members. */
const defined = <T extends object>(value: T): Defined<T> => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;

export const statusBehaviourArb: fc.Arbitrary<Extract<Behaviour, { kind: 'status' }>> = fc.record({
  kind: fc.constant('status' as const), status: statusArb,
  body: fc.constantFrom<BodyKind>('html', 'rpc-error', 'garbage', 'empty', 'html', 'huge-html'),
  contentType: optional(contentTypeArb, 4), retryAfter: optional(retryAfterArb, 3), stray: optional(idKindArb, 6),
}).map(defined);

const backoffArb: fc.Arbitrary<Extract<Behaviour, { kind: 'status' }>> = fc.record({
  kind: fc.constant('status' as const), status: fc.constantFrom(429, 503, 500, 502, 504), body: fc.constantFrom<BodyKind>('html', 'rpc-error', 'empty'),
  retryAfter: optional(retryAfterArb, 2),
}).map(defined);

export const truncateArb: fc.Arbitrary<Extract<Behaviour, { kind: 'truncate' }>> = fc.record({
  kind: fc.constant('truncate' as const), body: fc.constantFrom('sse' as const, 'sse' as const, 'json' as const), eventIds: fc.boolean(),
  afterEvents: fc.integer({ min: 0, max: 2 }), retry: optional(fc.constantFrom('0', '5', '-5', 'NaN', '99999999999', '1.5'), 2),
}).map(defined);

/** Behaviours that cost nothing but a round trip. */
export const cheapBehaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 4, arbitrary: fc.record({
    kind: fc.constant('answer' as const), format: fc.constantFrom('json' as const, 'sse' as const, 'sse-ids' as const, 'sse-open' as const),
    padBytes: fc.constantFrom(0, 0, 0, 1_100_000), stray: optional(idKindArb, 4),
  }).map(defined) },
  { weight: 5, arbitrary: sessionGoneArb },
  { weight: 4, arbitrary: statusBehaviourArb },
  { weight: 3, arbitrary: backoffArb },
  { weight: 3, arbitrary: truncateArb },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rpc-error' as const), code: rpcCodeArb, data: dataArb, nullId: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrong-type' as const), contentType: fc.oneof(contentTypeArb, fc.constant(null)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad-json' as const), body: fc.constantFrom('{"jsonrpc":"2.0",', '<html>oops</html>', '[]', '{}', '"x"', '{"jsonrpc":"2.0","id":1}', '\u0000') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('bad-sse' as const), framing: fc.constantFrom<BadSse>('no-final-blank', 'cr-only', 'crlf', 'split', 'junk-events', 'answer-twice', 'other-event-type', 'bom') }) },
  { weight: 2, arbitrary: fc.constant<Behaviour>({ kind: 'reset' }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrong-id' as const), format: fc.constantFrom('json' as const, 'sse' as const), id: fc.constantFrom('other' as const, 'missing' as const, 'null' as const, 'stringified' as const) }) },
  // A 202 with a body all the same: the call's answer (an error, the result, as JSON or an event stream) or none.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('accepted' as const), body: fc.constantFrom<AcceptedBody>('own-error', 'own-result', 'other-id', 'garbage', 'sse') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redirect' as const), status: fc.constantFrom(301 as const, 302 as const, 303 as const, 307 as const, 308 as const), location: fc.constantFrom('self' as const, 'elsewhere' as const, 'garbage' as const) }) },
);

/** Behaviours that leave a call without its answer for good: a 2xx that answers nothing, a stall. */
export const costlyBehaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.constant<Behaviour>({ kind: 'accepted' }),
  fc.record({
    kind: fc.constant('status' as const), status: fc.constantFrom(201, 203, 204, 205, 206, 226, 280), body: fc.constantFrom<BodyKind>('html', 'rpc-error', 'garbage', 'empty'),
    contentType: optional(contentTypeArb, 2),
  }).map(defined),
  fc.record({ kind: fc.constant('stall' as const), phase: fc.constantFrom('headers' as const, 'json-body' as const, 'sse-body' as const) }),
);

const versionArb = fc.constantFrom('2025-11-25', '2025-11-25', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '1999-01-01');
const initOkArb: fc.Arbitrary<Behaviour> = fc.record({
  kind: fc.constant('init-ok' as const), format: fc.constantFrom('json' as const, 'sse' as const, 'sse-open' as const),
  id: fc.constantFrom<IdKind>('plain', 'plain', 'plain', 'none', 'empty', 'control', 'latin1', 'spaces', 'long', 'overlong', 'reuse-dead'),
  version: versionArb, padBytes: fc.constantFrom(0, 0, 0, 0, 1_100_000),
});
/** How an `initialize` (the first, or a re-initialization) is answered. */
const initArb: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 6, arbitrary: initOkArb },
  { weight: 3, arbitrary: cheapBehaviourArb.filter((b) => b.kind !== 'answer') },
);
/** The first `initialize` succeeds most of the time, so that calls happen. */
const firstInitArb: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Behaviour>({ kind: 'init-ok', format: 'json', id: 'plain', version: '2025-11-25', padBytes: 0 }) },
  { weight: 2, arbitrary: initArb },
);

const streamArb: fc.Arbitrary<GetBehaviour> = fc.oneof(
  fc.constant<GetBehaviour>({ kind: 'not-allowed' }),
  fc.record({ kind: fc.constant('open' as const), retry: optional(fc.constantFrom('0', '10', '99999999999', '-1'), 3) }).map(defined),
  fc.constant<GetBehaviour>({ kind: 'end' }),
  sessionGoneArb, statusBehaviourArb, fc.constant<GetBehaviour>({ kind: 'reset' }), truncateArb,
);
const resumeArb: fc.Arbitrary<GetBehaviour> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<GetBehaviour>({ kind: 'resume' }) },
  { weight: 1, arbitrary: fc.constant<GetBehaviour>({ kind: 'not-allowed' }) },
  { weight: 2, arbitrary: sessionGoneArb },
  { weight: 1, arbitrary: statusBehaviourArb },
  { weight: 1, arbitrary: fc.constant<GetBehaviour>({ kind: 'reset' }) },
  { weight: 2, arbitrary: truncateArb.map((t) => ({ ...t, body: 'sse' as const })) },
);

const noteArb: fc.Arbitrary<NoteBehaviour> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<NoteBehaviour>({ kind: 'accepted' }) },
  { weight: 2, arbitrary: sessionGoneArb },
  { weight: 2, arbitrary: statusBehaviourArb },
  { weight: 1, arbitrary: fc.constant<NoteBehaviour>({ kind: 'reset' }) },
  { weight: 1, arbitrary: fc.constantFrom<NoteBehaviour>({ kind: 'answer', format: 'json', padBytes: 0 }, { kind: 'answer', format: 'sse-open', padBytes: 0 }) },
  { weight: 1, arbitrary: fc.constantFrom<NoteBehaviour>({ kind: 'stall', phase: 'json-body' }, { kind: 'stall', phase: 'sse-body' }) },
);

/** Inserts `extra` into `list` at a position drawn from `at`. */
const insertAt = <T>(list: T[], extra: T | undefined, at: number) => (extra === undefined ? list : [...list.slice(0, at % (list.length + 1)), extra, ...list.slice(at % (list.length + 1))]);

/**
 * A scenario: 1–4 calls (one after the other, or all at once: then which call meets which
 * behaviour depends on timing) against a server whose first answers to each kind of request are drawn.
 */
export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  firstInit: firstInitArb,
  reinits: fc.array(initArb, { maxLength: 3 }),
  calls: fc.array(cheapBehaviourArb, { maxLength: 8 }),
  costly: optional(costlyBehaviourArb, 12),
  costlyAt: fc.nat(),
  streams: fc.array(streamArb, { maxLength: 2 }),
  resumes: fc.array(resumeArb, { maxLength: 2 }),
  notes: fc.array(noteArb, { maxLength: 3 }),
  tools: fc.array(fc.constantFrom<Tool>('echo', 'echo', 'write'), { minLength: 1, maxLength: 4 }),
  concurrent: fc.constantFrom(false, false, true),
}).map(({ firstInit, reinits, calls, costly, costlyAt, streams, resumes, notes, tools, concurrent }) => ({
  script: { inits: [firstInit, ...reinits], calls: insertAt(calls, costly, costlyAt), streams, resumes, notes },
  calls: tools, concurrent,
}));
