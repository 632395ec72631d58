import { shown, type McpTalk, type OpenedSession } from './mcp-talk.ts';
import { failed, passed, skipped, type Verdict } from './server-catalogue.ts';
import { judgeSessionIdChars, judgeSessionIds } from './session-id-quality.ts';

/** How many `initialize`s the session-id check opens (with the first session). */
export const ID_SAMPLES = 5;

/**
 * `session-id-issued` (each id of visible ASCII) and `session-id-random` (distinct, enough
 * entropy): opens more sessions until there are {@link ID_SAMPLES}, and judges their ids.
 *
 * @example
 * const { issued, random } = await sessionIdChecks(talk, first);
 */
export async function sessionIdChecks(talk: McpTalk, first: OpenedSession): Promise<{ issued: Verdict; random: Verdict }> {
  const ids = [first.id!];
  while (ids.length < ID_SAMPLES) {
    const session = await talk.open();
    if (session.id === undefined) {
      const why = failed(`initialize ${ids.length + 1} was answered without an Mcp-Session-Id (the first had one)`);
      return { issued: why, random: why };
    }
    ids.push(session.id);
  }
  return { issued: judgeSessionIdChars(ids), random: judgeSessionIds(ids) };
}

/**
 * `missing-session-400`: the work request without a session id, on a server that issues them: 400.
 *
 * @example
 * await missingSession400(talk, session);
 */
export async function missingSession400(talk: McpTalk, session: OpenedSession): Promise<Verdict> {
  const reply = await talk.request(talk.work.method, talk.work.params, { id: undefined, revision: session.revision });
  const sent = `POST ${talk.work.label} without Mcp-Session-Id`;
  return reply.status === 400 ? passed(`${sent} → 400`) : failed(`${sent} → ${shown(reply)}: not 400`);
}

/**
 * `bad-protocol-version-400`: a request on a live session with `MCP-Protocol-Version: 1999-01-01`: 400.
 * Skipped on 2025-03-26, which defines no such header.
 *
 * @example
 * await badProtocolVersion400(talk, session);
 */
export async function badProtocolVersion400(talk: McpTalk, session: OpenedSession): Promise<Verdict> {
  if (session.revision === '2025-03-26') return skipped('the server negotiated 2025-03-26, which defines no MCP-Protocol-Version header');
  const reply = await talk.request('tools/list', {}, session, { 'mcp-protocol-version': '1999-01-01' });
  const sent = 'POST tools/list on a live session with MCP-Protocol-Version: 1999-01-01';
  return reply.status === 400 ? passed(`${sent} → 400`) : failed(`${sent} → ${shown(reply)}: not 400`);
}
