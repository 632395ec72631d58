import { shown, type McpTalk, type OpenedSession } from './mcp-talk.ts';
import { failed, passed, type Verdict } from './server-catalogue.ts';
import { NoAnswerError } from './server-http.ts';

/** Calls made at once on one session. */
export const CONCURRENT_CALLS = 20;

/**
 * `concurrent-calls`: {@link CONCURRENT_CALLS} work calls at once on one session, each answered
 * 200 with a result for its own id (each capped like every request).
 *
 * @example
 * await concurrentCalls(talk, session);
 */
export async function concurrentCalls(talk: McpTalk, session: OpenedSession): Promise<Verdict> {
  const outcomes = await Promise.all(Array.from({ length: CONCURRENT_CALLS }, () => talk.doWork(session).then(
    (reply) => (reply.answered ? undefined : shown(reply)),
    (error: unknown) => (error instanceof NoAnswerError ? error.message : String(error)),
  )));
  const failures = outcomes.filter((o) => o !== undefined);
  if (failures.length) return failed(`${failures.length} of ${CONCURRENT_CALLS} concurrent ${talk.work.label} were not answered, e.g. ${failures[0]}`);
  return passed(`${CONCURRENT_CALLS} concurrent ${talk.work.label} on one session, all answered`);
}
