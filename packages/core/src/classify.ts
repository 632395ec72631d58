import { matchDialect, type SessionGoneDialect } from './dialects.ts';
import { dataField, readRpcError, type RpcError } from './json-rpc.ts';
import type { Observation } from './observation.ts';
import { parseRetryAfter } from './retry-after.ts';
import { revisionTraits, type RevisionTraits } from './revisions.ts';
import type { Verdict } from './verdict.ts';
import { isCount, isNonNegative } from './values.ts';

/**
 * Options of {@link classify}.
 *
 * @example
 * const options: ClassifyOptions = { dialects: [{ name: 'my-gateway', status: 410, outcome: 'not-processed' }] };
 * classify({ kind: 'http', status: 410, revision: '2025-11-25', sessionIdSent: true }, options).kind // 'session-gone'
 */
export interface ClassifyOptions {
  /** Extra "session gone" dialects, tried before the built-in ones. */
  readonly dialects?: readonly SessionGoneDialect[];
}

type Http = Extract<Observation, { kind: 'http' }>;

const WIRE_MEDIA_TYPES = ['application/json', 'text/event-stream'];
/** The SDK's `McpError` puts this in front of the message it was given. */
const MCP_ERROR_PREFIX = /^MCP error -?\d+: /;

function sessionGone(dialect: SessionGoneDialect, rpc: RpcError | undefined): Verdict {
  const uptime = dataField(rpc, 'server_uptime_seconds');
  return {
    kind: 'session-gone', dialect: dialect.name, outcome: dialect.outcome,
    ...(isNonNegative(uptime) ? { serverUptimeSeconds: uptime } : {}),
  };
}

function classifyHttp(o: Http, traits: RevisionTraits, sessionLogic: boolean, dialects?: readonly SessionGoneDialect[]): Verdict {
  const { status } = o;
  if (status >= 200 && status < 300) {
    // Only a POST or GET answered 200 carries messages; 202, 204 and DELETE replies carry none.
    const mediaType = o.contentType?.split(';')[0]?.trim().toLowerCase();
    return status === 200 && o.httpMethod !== 'DELETE' && mediaType && !WIRE_MEDIA_TYPES.includes(mediaType)
      ? { kind: 'malformed', contentType: mediaType }
      : { kind: 'success' };
  }
  const rpc = readRpcError(o.body);
  if (sessionLogic) {
    const dialect = matchDialect({ status, rpc, text: typeof o.body === 'string' ? o.body : undefined }, dialects);
    if (dialect) return sessionGone(dialect, rpc);
  }
  const retryAfter = parseRetryAfter(o.retryAfter);
  const wait = retryAfter ? { retryAfter } : {};
  if (status === 429) return { kind: 'rate-limited', ...wait };
  // A 503 proves "not processed" only in the server's own words: a gateway's bare 503 may come after it forwarded the request.
  if (status === 503 && (retryAfter !== undefined || rpc !== undefined)) return { kind: 'unavailable', ...wait };
  if (status >= 500 && status < 600) return { kind: 'server-error', status, retryable: status !== 501 && status !== 505, ...wait };
  if (traits.era === 'modern' && status === 404 && rpc?.code === -32601) return { kind: 'method-not-found' };
  if (traits.era === 'modern' && status === 400 && rpc?.code === -32022) {
    const supported = dataField(rpc, 'supported');
    return {
      kind: 'version-unsupported',
      supported: Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [],
    };
  }
  return { kind: 'client-error', status, ...(rpc ? { code: rpc.code } : {}) };
}

/**
 * Classifies what happened to one request. Session loss is recognised only on a sessionful
 * revision and only for a request that carried a session id; everything else falls through
 * to the ordinary HTTP and transport rules. Never throws on any body.
 *
 * A 503 is `unavailable` (not processed) only when the server says so itself: a `Retry-After`
 * header (it asks to be called again) or a JSON-RPC error body (the MCP server answered).
 * Any other 503 (a gateway's page, an empty body) may have come after the request was
 * forwarded: it is a `server-error`, an unknown outcome, like 500, 502 and 504.
 *
 * @example
 * classify({
 *   kind: 'http', status: 404, revision: '2025-11-25', sessionIdSent: true,
 *   body: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}',
 * }) // { kind: 'session-gone', dialect: 'typescript-sdk', outcome: 'not-processed' }
 * classify({ kind: 'http', status: 503, retryAfter: '1', revision: '2025-11-25', sessionIdSent: true }).kind // 'unavailable'
 * classify({ kind: 'http', status: 503, body: '<html>Service Unavailable</html>', revision: '2025-11-25', sessionIdSent: true })
 * // { kind: 'server-error', status: 503, retryable: true }
 */
export function classify(observation: Observation, options: ClassifyOptions = {}): Verdict {
  const traits = revisionTraits(observation.revision);
  const sessionLogic = traits.sessions && observation.sessionIdSent;
  switch (observation.kind) {
    case 'http':
      return classifyHttp(observation, traits, sessionLogic, options.dialects);
    case 'stream-ended': {
      const { lastEventId, retryMs } = observation;
      const resumable = traits.resumable && !!lastEventId; // a cursor, and not an empty one
      return {
        kind: 'broken-stream', resumable,
        ...(resumable ? { lastEventId } : {}), ...(resumable && isCount(retryMs) ? { retryMs } : {}),
      };
    }
    case 'network':
      if (observation.phase === 'blocked') return { kind: 'blocked', needs: observation.needs };
      return observation.phase === 'before-send'
        ? { kind: 'not-processed', reason: 'connection-refused' }
        : { kind: 'outcome-unknown', reason: 'connection-broken' };
    case 'timeout':
      return { kind: 'outcome-unknown', reason: 'timeout' };
    case 'rpc-error': {
      const { code, data } = observation;
      const rpc: RpcError = { code, message: observation.message.replace(MCP_ERROR_PREFIX, ''), ...(data === undefined ? {} : { data }) };
      const dialect = sessionLogic ? matchDialect({ rpc }, options.dialects) : undefined;
      if (dialect) return sessionGone(dialect, rpc);
      if (code === -32000 && rpc.message === 'Connection closed') return { kind: 'outcome-unknown', reason: 'connection-broken' };
      if (code === -32001 && rpc.message === 'Request timed out') return { kind: 'outcome-unknown', reason: 'timeout' };
      return { kind: 'client-error', code };
    }
  }
}
