import { concurrentCalls } from './concurrent-calls.ts';
import { deleteChecks, liveGet405, reinitializeAfter404, unknownSession404 } from './dead-session-checks.ts';
import { judgeGoneBody, judgeGoneJsonRpc } from './gone-answer.ts';
import { LEGACY_REVISION, McpTalk, MODERN_REVISION, ProbeError, type OpenedSession } from './mcp-talk.ts';
import { noSessionId, unknownMethod404 } from './modern-checks.ts';
import { restartChecks } from './restart-checks.ts';
import { failed, results, SESSION_CHECKS, skipped, type ServerCheckName, type ServerCheckResult, type Verdict } from './server-catalogue.ts';
import { NoAnswerError } from './server-http.ts';
import type { DeadIdAnswers } from './gone-answer.ts';
import { startTarget, type TargetOptions } from './server-target.ts';
import { badProtocolVersion400, missingSession400, sessionIdChecks } from './session-checks.ts';
import { streamKeepsAlive } from './stream-keeps-alive.ts';

/** What `scoreServer` takes: the server (a URL, or a command it starts), and what it knows of it. */
export type ScoreServerOptions = TargetOptions & {
  /** The server's idle budget in ms: enables `stream-keeps-alive`. */
  readonly idleMs?: number;
  /** The revision to score: asked for in `initialize`, or `2026-07-28` (no `initialize`). Default: negotiated from 2025-11-25. */
  readonly revision?: string;
  /** The cap on each request (default 10 s). */
  readonly requestCapMs?: number;
  /** A failed SHOULD-level check fails the run too (`--strict`). */
  readonly strict?: boolean;
};

/** The server check's result for one server. */
export interface ServerReport {
  /** The URL or the command. */
  readonly server: string;
  readonly url?: string;
  /** The revision scored (negotiated, or as told). */
  readonly revision?: string;
  /** The work call the checks used (`tools/call echo`, `ping`). */
  readonly work?: string;
  readonly checks: readonly ServerCheckResult[];
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Required checks that failed: the run fails when there is one. */
  readonly requiredFailed: number;
  /** Why the check could not score the server at all (it did not start, initialize failed). */
  readonly problem?: string;
  readonly ms: number;
}

/** Why a check could not go on, on one line (a process's start failure shows what it printed on several). */
const why = (error: unknown): string =>
  (error instanceof NoAnswerError || error instanceof ProbeError ? error.message : `the check failed: ${String(error)}`).trim().replace(/\s*\n\s*/g, ' | ');

/** Runs one check, turning "it never answered" into its failure. */
async function guarded(run: () => Promise<Verdict>): Promise<Verdict> {
  try {
    return await run();
  } catch (error) {
    return failed(why(error));
  }
}

/** Whether an `initialize` refusal says the server speaks 2026-07-28 only (`-32022` with `data.supported`). */
function speaksModernOnly(error: unknown): boolean {
  const reply = error instanceof ProbeError ? error.reply : undefined;
  const data = reply?.messages.find((m) => 'error' in m)?.error as { data?: { supported?: unknown } } | undefined;
  const supported = data?.data?.supported;
  return Array.isArray(supported) && supported.includes(MODERN_REVISION);
}

async function scoreModern(talk: McpTalk, verdicts: Map<ServerCheckName, Verdict>): Promise<void> {
  const none = skipped('2026-07-28 has no sessions: the session checks do not apply');
  for (const name of SESSION_CHECKS) verdicts.set(name, none);
  verdicts.set('no-session-id', await guarded(() => noSessionId(talk)));
  verdicts.set('unknown-method-404', await guarded(() => unknownMethod404(talk)));
}

async function scoreSessionful(talk: McpTalk, first: OpenedSession, options: ScoreServerOptions, restart: Parameters<typeof restartChecks>[1], verdicts: Map<ServerCheckName, Verdict>) {
  const modernOnly = skipped(`the server negotiated ${first.revision}: the 2026-07-28 checks do not apply`);
  verdicts.set('no-session-id', modernOnly).set('unknown-method-404', modernOnly);
  await talk.pickWork(first);
  if (first.id === undefined) {
    const none = skipped('initialize issued no Mcp-Session-Id: the server keeps no sessions, the session checks do not apply');
    for (const name of SESSION_CHECKS) verdicts.set(name, none);
    verdicts.set('concurrent-calls', await guarded(() => concurrentCalls(talk, first)));
    return;
  }
  const set = async (name: ServerCheckName, run: () => Promise<Verdict>) => void verdicts.set(name, await guarded(run));
  try {
    const ids = await sessionIdChecks(talk, first);
    verdicts.set('session-id-issued', ids.issued).set('session-id-random', ids.random);
  } catch (error) {
    verdicts.set('session-id-issued', failed(why(error))).set('session-id-random', failed(why(error)));
  }
  await set('missing-session-400', () => missingSession400(talk, first));
  await set('bad-protocol-version-400', async () => badProtocolVersion400(talk, await talk.open()));
  let get405 = false;
  let delete405 = false;
  let deletedPost: { reply: DeadIdAnswers['post']; id: number } | undefined;
  try {
    get405 = await liveGet405(talk, await talk.open());
    const found = await deleteChecks(talk, get405);
    delete405 = found.delete405;
    if (found.answers) deletedPost = { reply: found.answers.post, id: found.answers.postId };
    verdicts.set('deleted-session-404', found.deleted).set('delete-ends-only-that-session', found.onlyThat);
  } catch (error) {
    verdicts.set('deleted-session-404', failed(why(error))).set('delete-ends-only-that-session', failed(why(error)));
  }
  const live = { get405, delete405 };
  try {
    const { verdict, answers } = await unknownSession404(talk, first.revision, live);
    verdicts.set('unknown-session-404', verdict);
    await set('reinitialize-after-404', () => reinitializeAfter404(talk, answers));
    verdicts.set('gone-body', judgeGoneBody(answers.post));
    const jsonRpc = judgeGoneJsonRpc([{ reply: answers.post, id: answers.postId }, ...(deletedPost ? [deletedPost] : [])]);
    verdicts.set('gone-jsonrpc-body', jsonRpc.body).set('gone-jsonrpc-id', jsonRpc.id);
  } catch (error) {
    for (const name of ['unknown-session-404', 'reinitialize-after-404', 'gone-body', 'gone-jsonrpc-body', 'gone-jsonrpc-id'] as const) verdicts.set(name, failed(why(error)));
  }
  await set('concurrent-calls', async () => concurrentCalls(talk, await talk.open()));
  await set('stream-keeps-alive', () => streamKeepsAlive(talk, options.idleMs));
  try {
    const { restart404, uptime } = await restartChecks(talk, restart, live);
    verdicts.set('restart-404', restart404).set('uptime-younger-than-session', uptime);
  } catch (error) {
    verdicts.set('restart-404', failed(why(error))).set('uptime-younger-than-session', failed(why(error)));
  }
}

function report(server: string, verdicts: Map<ServerCheckName, Verdict>, started: number, strict: boolean, extra: Partial<ServerReport>): ServerReport {
  const checks = results(verdicts, failed(`not run: ${extra.problem ?? 'the check stopped early'}`), strict);
  return {
    server, ...extra, checks,
    passed: checks.filter((c) => c.status === 'passed').length,
    failed: checks.filter((c) => c.status === 'failed').length,
    skipped: checks.filter((c) => c.status === 'skipped').length,
    requiredFailed: checks.filter((c) => c.required && c.status === 'failed').length,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Scores an MCP server's session contract: the checks of `SERVER_CHECKS`, from the spec,
 * JSON-RPC 2.0 and the seed's contract, each passed, failed (with what was sent and what came back) or skipped
 * (with why). Given a command, it starts the server itself (and restarts it for `restart-404`),
 * and stops it before returning. A server that cannot be reached or opens no session is a report
 * whose every check failed, with the `problem`.
 *
 * @example
 * const report = await scoreServer({ url: 'http://127.0.0.1:3000/mcp', idleMs: 200 });
 * report.requiredFailed; // 0 when every required check passed
 */
export async function scoreServer(options: ScoreServerOptions): Promise<ServerReport> {
  const started = performance.now();
  const label = 'url' in options ? options.url : options.command;
  const verdicts = new Map<ServerCheckName, Verdict>();
  const strict = options.strict === true;
  let target;
  try {
    target = await startTarget(options);
  } catch (error) {
    return report(label, verdicts, started, strict, { problem: `the server did not start: ${(error as Error).message}` });
  }
  const talk = new McpTalk(target.url, options.requestCapMs ?? 10_000, options.revision && options.revision !== MODERN_REVISION ? options.revision : LEGACY_REVISION);
  try {
    if (options.revision === MODERN_REVISION) {
      await scoreModern(talk, verdicts);
      return report(label, verdicts, started, strict, { url: target.url, revision: MODERN_REVISION });
    }
    let first: OpenedSession;
    try {
      first = await talk.open();
    } catch (error) {
      if (speaksModernOnly(error)) {
        await scoreModern(talk, verdicts);
        return report(label, verdicts, started, strict, { url: target.url, revision: MODERN_REVISION });
      }
      return report(label, verdicts, started, strict, { url: target.url, problem: why(error) });
    }
    if (first.revision === MODERN_REVISION) {
      await scoreModern(talk, verdicts);
      return report(label, verdicts, started, strict, { url: target.url, revision: MODERN_REVISION });
    }
    await scoreSessionful(talk, first, options, target, verdicts);
    return report(label, verdicts, started, strict, { url: target.url, revision: first.revision, work: talk.work.label });
  } finally {
    await target.stop();
  }
}
