import type { RunningServer } from './server-process.ts';
import { answersTo, openSession, type AnswerPair } from './wire-answer.ts';

/** A server's answers to a session id it does not have, in the two ways an id dies. */
export interface DeadSessionAnswers {
  /** The id of a session the process had, asked after the process was killed and started again. */
  readonly afterRestart: AnswerPair;
  /** The same id, asked while another session (opened after the restart) is live. */
  readonly whileAnotherSessionLives: AnswerPair;
}

/** Sent where the server issues no session ids (stateless, 2026-07-28): an id it never issued. */
export const STRAY_SESSION_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Measures how `running` answers a dead session id, on POST and on GET: opens a session, kills
 * and restarts the process, asks with that id; opens another session, asks again. Leaves the
 * server with that other session open.
 *
 * @example
 * const answers = await measureDeadSessionAnswers(running);
 * answers.afterRestart.POST // { status: 400, contentType: 'application/json', body: '{"jsonrpc":"2.0",…}' }
 */
export async function measureDeadSessionAnswers(running: RunningServer): Promise<DeadSessionAnswers> {
  const id = (await openSession(running.url)) ?? STRAY_SESSION_ID;
  await running.restart();
  const afterRestart = await answersTo(running.url, id);
  await openSession(running.url);
  const whileAnotherSessionLives = await answersTo(running.url, id);
  return { afterRestart, whileAnotherSessionLives };
}
