import { randomBytes } from 'node:crypto';
import { judgeDeadId, type DeadIdAnswers, type LiveMethods } from './gone-answer.ts';
import { sessionHeaders, shown, type McpTalk, type OpenedSession } from './mcp-talk.ts';
import { failed, passed, skipped, type Verdict } from './server-catalogue.ts';
import { openStream, probeGet } from './server-http.ts';

/**
 * Sends a POST (`tools/list`), a GET and a DELETE carrying a session id, one after another,
 * and keeps what came back.
 *
 * @example
 * const answers = await deadIdAnswers(talk, { id: 'never-issued', revision: '2025-11-25' });
 */
export async function deadIdAnswers(talk: McpTalk, session: Pick<OpenedSession, 'id' | 'revision'>): Promise<DeadIdAnswers> {
  const post = await talk.request('tools/list', {}, session);
  const get = await probeGet(talk.url, sessionHeaders(session), talk.capMs);
  const del = await talk.send({ method: 'DELETE', headers: sessionHeaders(session) });
  return { post, postId: post.request.id, get, del };
}

/**
 * Whether the server answers a live session's GET (the standalone stream) with 405: a dead id's
 * GET may be answered 405 too then. The stream, when it opens, is closed at once.
 *
 * @example
 * const get405 = await liveGet405(talk, session);
 */
export async function liveGet405(talk: McpTalk, session: OpenedSession): Promise<boolean> {
  const stream = await openStream(talk.url, sessionHeaders(session), talk.capMs);
  stream.close();
  return stream.status === 405;
}

/** A session id no server issued: visible ASCII, random. */
export const neverIssuedId = (): string => `mcp-chaos-check-never-issued-${randomBytes(12).toString('hex')}`;

/**
 * `unknown-session-404` (its answers are kept for `reinitialize-after-404` and `gone-body`).
 *
 * @example
 * const { verdict, answers } = await unknownSession404(talk, '2025-11-25', live);
 */
export async function unknownSession404(talk: McpTalk, revision: string, live: LiveMethods): Promise<{ verdict: Verdict; answers: DeadIdAnswers }> {
  const answers = await deadIdAnswers(talk, { id: neverIssuedId(), revision });
  return { verdict: judgeDeadId(answers, 'an id never issued', live), answers };
}

/**
 * `reinitialize-after-404`: right after the answer to a dead id (404, or whatever the server
 * said: `unknown-session-404` judges that), `initialize` without an id opens a session, and the
 * work call is answered on it.
 *
 * @example
 * await reinitializeAfter404(talk, answers);
 */
export async function reinitializeAfter404(talk: McpTalk, answers: DeadIdAnswers): Promise<Verdict> {
  const after = `after the dead id's ${answers.post.status}`;
  const session = await talk.open().catch((error: Error) => error);
  if (session instanceof Error) return failed(`${after}, ${session.message}`);
  const work = await talk.doWork(session);
  if (!work.answered) return failed(`${after}, initialize opened a session, but ${talk.work.label} on it → ${shown(work)}`);
  return passed(`${after}, initialize without an id opened a new session and ${talk.work.label} was answered on it`);
}

/** What the DELETE step found: the two checks' verdicts, and the dead id's POST answer for `gone-body`. */
export interface DeleteFindings {
  readonly deleted: Verdict;
  readonly onlyThat: Verdict;
  readonly delete405: boolean;
  readonly answers?: DeadIdAnswers;
}

/**
 * Opens two sessions, ends the first with DELETE, then judges `deleted-session-404` (the ended id
 * is answered 404 on POST, GET and DELETE) and `delete-ends-only-that-session` (the other is still
 * answered). A server that answers DELETE 405 lets no client end a session: both are skipped.
 *
 * @example
 * const found = await deleteChecks(talk, get405);
 */
export async function deleteChecks(talk: McpTalk, get405: boolean): Promise<DeleteFindings> {
  const ended = await talk.open();
  const other = await talk.open();
  const del = await talk.send({ method: 'DELETE', headers: sessionHeaders(ended) });
  if (del.status === 405) {
    const why = skipped('DELETE on a live session was answered 405: the server does not let clients end sessions');
    return { deleted: why, onlyThat: why, delete405: true };
  }
  if (del.status < 200 || del.status >= 300) {
    const why = failed(`DELETE on a live session → ${shown(del)}: neither 2xx nor 405`);
    return { deleted: why, onlyThat: why, delete405: false };
  }
  const answers = await deadIdAnswers(talk, ended);
  const deleted = judgeDeadId(answers, 'an id ended by DELETE', { get405, delete405: false });
  const work = await talk.doWork(other);
  const onlyThat = answers.post.status >= 200 && answers.post.status < 300
    ? failed(`after DELETE (→ ${del.status}) the ended session was still answered: POST tools/list → ${shown(answers.post)}`)
    : work.answered
      ? passed(`after DELETE (→ ${del.status}) of one session, ${talk.work.label} on another was answered`)
      : failed(`after DELETE (→ ${del.status}) of one session, ${talk.work.label} on another → ${shown(work)}`);
  return { deleted, onlyThat, delete405: false, answers };
}
