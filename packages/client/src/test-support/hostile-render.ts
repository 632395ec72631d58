import { sessionGoneResponse } from '@mcp-resilience/chaos';
import type { AcceptedBody, BadSse, Behaviour, GetBehaviour, IdKind, Outcome, Reply, RequestContext } from './hostile-behaviours.ts';

/* How each hostile behaviour is written on the wire: the reply to one request. */

const SSE = ['content-type', 'text/event-stream'] as const;
const JSON_TYPE = ['content-type', 'application/json'] as const;
const HTML = (status: number) =>
  `<html>\r\n<head><title>${status} Bad Gateway</title></head>\r\n<body>\r\n<center><h1>${status} Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
const NOTE = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });

const event = (data: string, id?: string, extra = '') => `${extra}${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;
const huge = (bytes: number, unit = 'x') => unit.repeat(Math.ceil(bytes / unit.length));

/** A body `bytes` long of proxy HTML. */
function hugeHtml(status: number, bytes: number): string {
  return `${HTML(status)}<!--${huge(bytes, 'padding ')}-->`;
}

function stray(ctx: RequestContext, kind: IdKind | undefined): [string, string][] {
  const id = kind === undefined ? undefined : ctx.mint(kind);
  return id === undefined ? [] : [['mcp-session-id', id]];
}

/** Needs the raw socket: a header value node:http refuses (control characters). */
const rawNeeded = (headers: readonly (readonly [string, string])[]) => headers.some(([, v]) => /[\0-\x08\x0a-\x1f\x7f]/.test(v));

function reply(status: number, headers: (readonly [string, string])[], body: (string | Uint8Array)[], end: Reply['end'] = 'end'): Reply {
  return { status, headers, body, end, ...(rawNeeded(headers) ? { raw: true } : {}) };
}

function sessionGone(b: Extract<Behaviour, { kind: 'session-gone' }>, ctx: RequestContext): Reply {
  switch (b.dialect) {
    case 'amdahl': {
      const data = b.data ?? `{"reason":"session_not_found","action":"reinitialize_and_replay_once","server_uptime_seconds":${b.uptime ?? '3'}}`;
      const body = `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Session not found. Please reinitialize.","data":${data}},"id":${JSON.stringify(ctx.rpcId ?? null)}}`;
      return reply(404, [JSON_TYPE], [body]);
    }
    case 'html-404': return reply(404, [['content-type', 'text/html']], [HTML(404).replaceAll('Bad Gateway', 'Not Found')]);
    case 'empty-404': return reply(404, [], []);
    case 'huge-404': return reply(404, [['content-type', 'text/html']], [hugeHtml(404, 4_000_000)]);
    default: {
      const canned = sessionGoneResponse(b.dialect, { requestId: ctx.rpcId, uptimeSeconds: 3 });
      return reply(canned.status, Object.entries(canned.headers), [canned.body]);
    }
  }
}

function statusBody(b: Extract<Behaviour, { kind: 'status' }>, ctx: RequestContext): { type: string | undefined; body: string } {
  switch (b.body) {
    case 'html': return { type: 'text/html', body: HTML(b.status) };
    case 'huge-html': return { type: 'text/html', body: hugeHtml(b.status, 5_000_000) };
    case 'rpc-error':
      return { type: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id: ctx.rpcId ?? null, error: { code: -32603, message: 'Internal error', data: { retry: 'later' } } }) };
    case 'garbage': return { type: 'application/json', body: '{"jsonrpc":"2.0","error":{"code":"-32000","message":' };
    case 'empty': return { type: undefined, body: '' };
  }
}

function badSse(framing: BadSse, answer: string): Reply {
  const frame = event(answer);
  switch (framing) {
    case 'no-final-blank': return reply(200, [SSE], [`data: ${answer}\n`]);
    case 'cr-only': return reply(200, [SSE], [`: hi\r\revent: message\rdata: ${answer}\r\r`]);
    case 'crlf': return reply(200, [SSE], [`event: message\r\ndata: ${answer}\r\n\r\n`]);
    case 'bom': return reply(200, [SSE], [`\uFEFF${frame}`]);
    case 'split': {
      const bytes = new TextEncoder().encode(frame);
      return reply(200, [SSE], Array.from(bytes, (byte) => Uint8Array.of(byte)));
    }
    case 'junk-events':
      return reply(200, [SSE], [
        ': comment\n\n', 'data: not json at all\n\n', 'event: weird\ndata: {"x":1}\n\n', 'id: a\0b\nretry: -5\nretry: NaN\ndata:\n\n',
        'data: null\n\ndata: 42\n\ndata: []\n\n', Uint8Array.of(0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a, 0x0a),
        'no colon here\nfield-without-value\n\n', frame,
      ]);
    case 'answer-twice': return reply(200, [SSE], [frame, frame]);
    case 'other-event-type': return reply(200, [SSE], [`event: surprise\ndata: ${answer}\n\n`]);
  }
}

function truncate(b: Extract<Behaviour, { kind: 'truncate' }>, answer: string, ctx: RequestContext): Reply {
  if (b.body === 'json') return reply(200, [JSON_TYPE, ['content-length', String(answer.length + 100)]], [answer.slice(0, answer.length >> 1)], 'destroy');
  const key = b.eventIds ? ctx.streamKey(answer) : undefined;
  const id = (n: number) => (key === undefined ? undefined : `${key}/${n}`);
  const parts: string[] = [];
  if (key !== undefined) parts.push(`id: ${id(0)}\n${b.retry === undefined ? '' : `retry: ${b.retry}\n`}data:\n\n`);
  for (let n = 1; n <= b.afterEvents; n++) parts.push(event(NOTE, id(n)));
  parts.push(`data: ${answer.slice(0, answer.length >> 1)}`);
  return reply(200, [SSE], parts, 'destroy');
}

function wrongId(b: Extract<Behaviour, { kind: 'wrong-id' }>, ctx: RequestContext): Reply {
  const { id: _, ...rest } = { ...ctx.answer, result: { content: [{ type: 'text', text: 'WRONG ANSWER' }] } } as Record<string, unknown>;
  // `stringified` is the right answer under the request's id written as a string ("4" for 4), as some servers send it.
  const message = b.id === 'stringified' ? { ...ctx.answer, id: String(ctx.rpcId) }
    : b.id === 'missing' ? rest : { ...rest, id: b.id === 'null' ? null : `not-${String(ctx.rpcId)}` };
  const text = JSON.stringify(message);
  return b.format === 'json' ? reply(200, [JSON_TYPE], [text]) : reply(200, [SSE], [event(text)]);
}

/** A 202 Accepted, with a body that should not be there (none: as it should be). */
function accepted(body: AcceptedBody | undefined, ctx: RequestContext): Reply {
  const error = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'hostile 202', data: { accepted: true } } });
  switch (body) {
    case undefined: return reply(202, [], []);
    case 'own-error': return reply(202, [JSON_TYPE], [error(ctx.rpcId)]);
    case 'own-result': return reply(202, [JSON_TYPE], [JSON.stringify(ctx.answer)]);
    case 'other-id': return reply(202, [JSON_TYPE], [error(`not-${String(ctx.rpcId)}`)]);
    case 'garbage': return reply(202, [JSON_TYPE], ['{"jsonrpc":"2.0","error":{"code":"-32000","message":']);
    case 'sse': return reply(202, [SSE], [event(JSON.stringify(ctx.answer))]);
  }
}

/** What to write for a POSTed request given its behaviour. */
export function render(b: Behaviour, ctx: RequestContext): Outcome {
  const answer = JSON.stringify(ctx.answer);
  switch (b.kind) {
    case 'answer': {
      const padded = b.padBytes === 0 ? answer : JSON.stringify(withPad(ctx.answer, b.padBytes));
      const headers: [string, string][] = [b.format === 'json' ? [...JSON_TYPE] : [...SSE], ...stray(ctx, b.stray)];
      if (b.format === 'json') return reply(200, headers, [padded]);
      if (b.format === 'sse' || b.format === 'sse-open') return reply(200, headers, [event(padded)], b.format === 'sse' ? 'end' : 'stall');
      const key = ctx.streamKey(padded);
      return reply(200, headers, [`id: ${key}/0\ndata:\n\n`, event(NOTE, `${key}/1`), event(padded, `${key}/2`)]);
    }
    case 'init-ok': {
      const id = ctx.mint(b.id);
      const result = { ...(ctx.answer.result as object), protocolVersion: b.version, ...(b.padBytes ? { instructions: huge(b.padBytes, 'read me ') } : {}) };
      const text = JSON.stringify({ ...ctx.answer, result });
      const headers: [string, string][] = [b.format === 'json' ? [...JSON_TYPE] : [...SSE], ...(id === undefined ? [] : [['mcp-session-id', id] as [string, string]])];
      return reply(200, headers, [b.format === 'json' ? text : event(text)], b.format === 'sse-open' ? 'stall' : 'end');
    }
    case 'rpc-error':
      // `nullId`: the server could not read the request (JSON-RPC's answer to an invalid request).
      return reply(200, [JSON_TYPE], [`{"jsonrpc":"2.0","id":${b.nullId ? 'null' : JSON.stringify(ctx.rpcId)},"error":{"code":${b.code},"message":"hostile","data":${b.data}}}`]);
    case 'status': {
      const { type, body } = statusBody(b, ctx);
      const contentType = b.contentType ?? type;
      const headers: [string, string][] = [
        ...(contentType === undefined ? [] : [['content-type', contentType] as [string, string]]),
        ...(b.retryAfter === undefined ? [] : [['retry-after', b.retryAfter] as [string, string]]), ...stray(ctx, b.stray),
      ];
      return reply(b.status, headers, [body]);
    }
    case 'session-gone': return sessionGone(b, ctx);
    case 'wrong-type': return reply(200, b.contentType === null ? [] : [['content-type', b.contentType]], [answer]);
    case 'bad-json': return reply(200, [JSON_TYPE], [b.body]);
    case 'bad-sse': return badSse(b.framing, answer);
    case 'truncate': return truncate(b, answer, ctx);
    case 'reset': return { status: 'reset' };
    case 'redirect': {
      const location = b.location === 'self' ? ctx.url : b.location === 'elsewhere' ? 'http://127.0.0.1:9/mcp' : 'http://[::1';
      return reply(b.status, [['location', location]], []);
    }
    case 'wrong-id': return wrongId(b, ctx);
    case 'accepted': return accepted(b.body, ctx);
    case 'stall':
      if (b.phase === 'headers') return { status: 'silence' };
      return b.phase === 'json-body' ? reply(200, [JSON_TYPE], [answer.slice(0, 10)], 'stall') : reply(200, [SSE], [event(NOTE)], 'stall');
  }
}

/** What to write for a GET given its behaviour; `resumed`: the answer a resumption continues with. */
export function renderGet(b: GetBehaviour, ctx: RequestContext, resumed: { readonly key: string; readonly answer: string } | undefined): Outcome {
  switch (b.kind) {
    case 'not-allowed': return reply(405, [], []);
    case 'open': return reply(200, [SSE], [`${b.retry === undefined ? '' : `retry: ${b.retry}\n`}: open\n\n`], 'stall');
    case 'end': return reply(200, [SSE], []);
    case 'resume':
      return resumed ? reply(200, [SSE], [event(resumed.answer, `${resumed.key}/9`)]) : reply(200, [SSE], [': nothing to resume\n\n'], 'stall');
    default: return render(b, ctx);
  }
}

/** The answer with a huge second text block (multi-byte characters in it, split anywhere). */
function withPad(answer: Record<string, unknown>, bytes: number): Record<string, unknown> {
  const result = answer.result as { content: unknown[] };
  return { ...answer, result: { ...result, content: [...result.content, { type: 'text', text: huge(bytes, 'ünïcødé €😀 ') }] } };
}
