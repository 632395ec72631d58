import { judgeDeadId, uptimeSeconds, type LiveMethods } from './gone-answer.ts';
import { shown, type McpTalk } from './mcp-talk.ts';
import { failed, passed, skipped, type Verdict } from './server-catalogue.ts';
import { deadIdAnswers } from './dead-session-checks.ts';
import type { ServerTarget } from './server-target.ts';

/** The two restart checks' verdicts. */
export interface RestartVerdicts {
  readonly restart404: Verdict;
  readonly uptime: Verdict;
}

/**
 * Opens two sessions (the work call answered on the first), restarts the server (stop by PID,
 * start again), then judges `restart-404` (each old id is answered 404 on POST, and the first on
 * GET and DELETE too: not 400, not 200; the body is the JSON-RPC and seed checks' business) and `uptime-younger-than-session` (the 404's
 * `server_uptime_seconds`, when sent, is less than the first session's age: the seed's test for a
 * restart). Skipped for a URL: only a command can be restarted.
 *
 * @example
 * const { restart404, uptime } = await restartChecks(talk, target, live);
 */
export async function restartChecks(talk: McpTalk, target: ServerTarget, live: LiveMethods): Promise<RestartVerdicts> {
  if (!target.restart) {
    const why = skipped('needs --server-command: a server given by URL cannot be restarted by the check');
    return { restart404: why, uptime: why };
  }
  const first = await talk.open();
  const second = await talk.open();
  const work = await talk.doWork(first);
  if (!work.answered) {
    const why = failed(`before the restart, ${talk.work.label} on a new session → ${shown(work)}`);
    return { restart404: why, uptime: why };
  }
  await target.restart();
  const answers = await deadIdAnswers(talk, first);
  const ageSeconds = (Date.now() - first.openedAtMs) / 1000;
  const other = await talk.request('tools/list', {}, second);
  let restart404 = judgeDeadId(answers, 'an id from before the restart', live);
  if (restart404.status === 'passed' && other.status !== 404) restart404 = failed(`a second id from before the restart: POST → ${shown(other)}: not 404`);
  const seconds = uptimeSeconds(answers.post);
  const uptime = seconds === undefined
    ? skipped(`the answer to an old id after the restart carried no server_uptime_seconds (${shown(answers.post)})`)
    : seconds < ageSeconds
      ? passed(`server_uptime_seconds ${seconds} < the old session's age ${ageSeconds.toFixed(1)} s: a client can tell the restart`)
      : failed(`server_uptime_seconds ${seconds} after a restart, not less than the old session's age ${ageSeconds.toFixed(1)} s: a client would blame itself`);
  return { restart404, uptime };
}
