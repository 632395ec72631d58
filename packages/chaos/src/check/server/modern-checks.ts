import { neverIssuedId } from './dead-session-checks.ts';
import { shown, type McpTalk } from './mcp-talk.ts';
import { failed, passed, type Verdict } from './server-catalogue.ts';

/**
 * `no-session-id` (2026-07-28 has no sessions): a `tools/list` in the revision's envelope is
 * answered 200 with no `Mcp-Session-Id`.
 *
 * @example
 * await noSessionId(talk);
 */
export async function noSessionId(talk: McpTalk): Promise<Verdict> {
  const reply = await talk.modern('tools/list', {});
  if (reply.status !== 200 || !reply.answer || !('result' in reply.answer)) return failed(`POST tools/list (2026-07-28) → ${shown(reply)}: not answered`);
  const id = reply.headers.get('mcp-session-id');
  return id === null ? passed('POST tools/list (2026-07-28) → 200 without Mcp-Session-Id')
    : failed(`POST tools/list (2026-07-28) → 200 with Mcp-Session-Id ${JSON.stringify(id)}: 2026-07-28 has no sessions`);
}

/**
 * `unknown-method-404` (in 2026-07-28 a 404 means an unknown method, never "session gone"): an
 * unknown method is answered 404 with `-32601`, and a `tools/list` carrying an `Mcp-Session-Id`
 * the server never issued is answered 200 (the header is ignored), not 404.
 *
 * @example
 * await unknownMethod404(talk);
 */
export async function unknownMethod404(talk: McpTalk): Promise<Verdict> {
  const unknown = await talk.modern('mcp-chaos-check/no-such-method', {});
  const code = (unknown.answer?.error as { code?: unknown } | undefined)?.code;
  if (unknown.status !== 404 || code !== -32601) return failed(`POST mcp-chaos-check/no-such-method (2026-07-28) → ${shown(unknown)}: not 404 with -32601`);
  const stale = await talk.modern('tools/list', {}, { 'mcp-session-id': neverIssuedId() });
  if (stale.status !== 200) return failed(`POST tools/list (2026-07-28) with an Mcp-Session-Id never issued → ${shown(stale)}: not 200 (the header must be ignored)`);
  return passed('an unknown method → 404 -32601; tools/list with an Mcp-Session-Id never issued → 200');
}
