import type { ClientRun } from './client-process.ts';
import { skippable, type ChurnScenario } from './scenario.ts';

/** What the client printed for one call: answered (`ok`, with the first text) or failed (`error`). */
export interface CallOutcome {
  readonly id: string;
  readonly ok: boolean;
  readonly text?: string;
  readonly error?: string;
  /** When the line arrived, ms since the scenario started. */
  readonly atMs: number;
}

/** The client's run read against the contract: the outcomes, a skip it declared, or what was wrong. */
export interface ReadRun {
  readonly outcomes: readonly CallOutcome[];
  readonly skipped?: string;
  /** Why the scenario failed before any check: the client did not start, hung, exited badly or printed garbage. */
  readonly problem?: string;
}

const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max)}…` : text);
/** The line of stderr that says most: the last that names an error, or the last. */
const telling = (text: string) => {
  const lines = text.trim().split('\n').filter((l) => l.trim());
  return clip(([...lines].reverse().find((l) => /error|cannot|not found|denied/i.test(l)) ?? lines.at(-1) ?? '').trim());
};

/**
 * Reads the client's stdout as the workload contract has it: one JSON object per line,
 * `{"id","ok":true,"text"?}` or `{"id","ok":false,"error"?}` for each call, or `{"skip": reason}`
 * alone for a revision the client does not speak or a protected server it cannot authenticate to. Anything else is garbage, and a failed scenario.
 *
 * @example
 * readRun(run, scenario); // { outcomes: [{ id: 'c1', ok: true, text: 'c1', atMs: 480 }] }
 */
export function readRun(run: ClientRun, scenario: ChurnScenario, capMs: number): ReadRun {
  const ids = new Set(scenario.steps.flatMap((step) => step.calls.map((call) => call.id)));
  const outcomes: CallOutcome[] = [];
  let skipped: string | undefined;
  for (const { text, atMs } of run.lines) {
    if (text.trim() === '') continue;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
      if (typeof line !== 'object' || line === null || Array.isArray(line)) throw new Error();
    } catch {
      return { outcomes, problem: `printed a line that is not JSON: ${JSON.stringify(clip(text))}` };
    }
    if (typeof line.skip === 'string') {
      skipped = line.skip;
      continue;
    }
    if (typeof line.id !== 'string' || !ids.has(line.id) || typeof line.ok !== 'boolean') {
      return { outcomes, problem: `printed a line that is no call's outcome (want {"id","ok"} with an id of the scenario): ${JSON.stringify(clip(text))}` };
    }
    if (outcomes.some((o) => o.id === line.id)) return { outcomes, problem: `printed two outcomes for ${line.id}` };
    outcomes.push({
      id: line.id, ok: line.ok, atMs,
      ...(typeof line.text === 'string' ? { text: line.text } : {}), ...(line.error === undefined ? {} : { error: clip(String(line.error)) }),
    });
  }
  if (run.timedOut) return { outcomes, problem: `hung: still running after ${capMs} ms (killed)` };
  if (skipped !== undefined) {
    if (!skippable(scenario)) return { outcomes, problem: `skipped a scenario of revision 2025-11-25 (${clip(skipped)})` };
    return outcomes.length ? { outcomes, problem: 'printed outcomes and a skip' } : { outcomes, skipped };
  }
  if (run.code !== 0) {
    const why = run.stderr.trim() ? `: ${telling(run.stderr)}` : '';
    return { outcomes, problem: outcomes.length ? `exited with code ${run.code}${why}` : `did not start (exit code ${run.code})${why}` };
  }
  return { outcomes };
}
